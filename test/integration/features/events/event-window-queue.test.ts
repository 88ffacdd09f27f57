import { Worker } from "bullmq";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { eventWindowDelay } from "../../../../src/features/events/event-window.js";
import { allJobs, openTestQueues } from "../../../support/process-jobs.js";
import { waitFor } from "../../../support/wait-for.js";
import { createTestRedis, type TestRedis } from "../../../support/redis.js";

const PROJECT = 67;

describe("the merge window of PIM events in the project queue (real Redis, no worker)", () => {
  let redis: TestRedis;
  let queues: JobQueues;
  beforeEach(async () => {
    redis = await createTestRedis();
    queues = openTestQueues(redis, [PROJECT]);
  });
  afterEach(async () => {
    await queues.close();
    await redis.cleanup();
  });

  /** When the delayed job may start, from its score in the delayed set (BullMQ: start time × 4096 + a counter). */
  async function startOf(jobId: string): Promise<number> {
    const score = await redis.redis.zscore(queues.queueFor(PROJECT).toKey("delayed"), jobId);
    expect(score).not.toBeNull();
    return Math.floor(Number(score) / 0x1000);
  }

  it("each event joining the waiting job moves its start a quiet gap after itself, within the window", async () => {
    const window = { quietMs: 20_000, maxMs: 40_000 };
    await queues.enqueue("sync.events", { project: PROJECT }, eventWindowDelay(window));
    const [job] = await allJobs(queues, PROJECT);
    const firstStart = await startOf(job?.id ?? "");
    expect(firstStart).toBe((job?.timestamp ?? 0) + window.quietMs);
    // A later event (the clock has moved on): the start follows it.
    await waitFor(() => Date.now() > (job?.timestamp ?? 0) + 5, { timeoutMs: 5_000, what: "the clock to move on" });
    await queues.enqueue("sync.events", { project: PROJECT }, eventWindowDelay(window));
    expect(await allJobs(queues, PROJECT)).toHaveLength(1);
    const secondStart = await startOf(job?.id ?? "");
    expect(secondStart).toBeGreaterThan(firstStart);
    expect(secondStart).toBeLessThanOrEqual((job?.timestamp ?? 0) + window.maxMs);
  });

  it("never past the window's end: a quiet gap longer than what is left of it ends with the window", async () => {
    const window = { quietMs: 20_000, maxMs: 20_010 };
    await queues.enqueue("sync.events", { project: PROJECT }, eventWindowDelay(window));
    const [job] = await allJobs(queues, PROJECT);
    expect(await startOf(job?.id ?? "")).toBe((job?.timestamp ?? 0) + window.quietMs);
    // Later than 10 ms after the first: a quiet gap from now would end past the window.
    await waitFor(() => Date.now() > (job?.timestamp ?? 0) + 15, { timeoutMs: 5_000, what: "the clock to move on" });
    const before = Date.now();
    await queues.enqueue("sync.events", { project: PROJECT }, eventWindowDelay(window));
    const took = Date.now() - before;
    // The window's end, give or take the milliseconds the request took: the delay is computed from
    // the clock read when the request looks at the job, and BullMQ's changeDelay counts it from
    // its own reading a moment later (on a loaded machine, a millisecond or more).
    const start = await startOf(job?.id ?? "");
    expect(start).toBeGreaterThanOrEqual((job?.timestamp ?? 0) + window.maxMs);
    expect(start).toBeLessThanOrEqual((job?.timestamp ?? 0) + window.maxMs + took);
  });

  it("a job waiting for its retry keeps its backoff: an event joins it without moving its start", async () => {
    const queue = queues.queueFor(PROJECT);
    await queues.enqueue("sync.events", { project: PROJECT }, eventWindowDelay({ quietMs: 0, maxMs: 0 }));
    // A real BullMQ worker whose run fails: the job goes back to the delayed set for its backoff.
    const connection = redis.redis.duplicate({ maxRetriesPerRequest: null });
    const worker = new Worker(queue.name, () => Promise.reject(new Error("the PIM did not answer")), {
      connection,
      prefix: queue.opts.prefix,
    });
    try {
      const job = await waitFor(
        async () => {
          const [candidate] = await allJobs(queues, PROJECT);
          return candidate && candidate.attemptsMade === 1 && (await candidate.getState()) === "delayed" ? candidate : false;
        },
        { timeoutMs: 30_000, what: "the failed job to wait for its retry" },
      );
      await worker.close();
      const backoffStart = await startOf(job.id ?? "");
      await queues.enqueue("sync.events", { project: PROJECT }, eventWindowDelay({ quietMs: 0, maxMs: 0 }));
      expect(await startOf(job.id ?? "")).toBe(backoffStart);
    } finally {
      await worker.close();
      connection.disconnect();
    }
  });
});
