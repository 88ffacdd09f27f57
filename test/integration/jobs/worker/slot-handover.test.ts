/**
 * A Worker may take its queue's next job in the call that completes the previous one, on the same
 * slot (slot-gated-worker.ts): only when no other queue of the process waits for a slot, never
 * with a second slot, and the slot is free again once the run ends. Real Redis, the real worker
 * with concurrency 1, handlers replaced to record what ran.
 */
import { Queue } from "bullmq";
import { describe, expect } from "vitest";
import { createConcurrencyLimiter } from "../../../../src/infra/http/concurrency-limiter.js";
import { createBullmqConnection } from "../../../../src/jobs/queues/create-bullmq-connection.js";
import { SlotGatedWorker } from "../../../../src/jobs/worker/slot-gated-worker.js";
import type { JobHandlers } from "../../../../src/jobs/catalog/job-handlers.js";
import { SyncIncomplete } from "../../../../src/jobs/handlers/sync-incomplete.js";
import { jobOptionsFor } from "../../../../src/jobs/queues/job-options.js";
import { startAppWorker } from "../../../support/app-worker.js";
import type { Settings } from "../../../../src/settings/settings-schema.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { TEST_REDIS_URL } from "../../../support/redis.js";
import { finishedJob, OTHER_PROJECT, PROJECT, type WorkerHarness } from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test, type WorkersFixture } from "../../../support/fixtures.js";

describe("worker: a job's slot handed to the queue's next job", () => {
  let h: WorkerHarness;
  /** Projects in the order their jobs ran, and the most handlers ever running at once. */
  let order: number[];
  let running: number;
  let maxRunning: number;
  /** Called by the handler, before it ends; may throw. */
  let during: (project: number, attempt: number) => void;

  let workers: WorkersFixture;

  test.beforeEach(async ({ harness, workers: fixture }) => {
    h = await harness.start();
    workers = fixture;
    order = [];
    running = 0;
    maxRunning = 0;
    during = () => undefined;
  });

  const handlers: JobHandlers = {
    async "sync.run"(data, context) {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      try {
        order.push(data.project);
        // Let the other Worker reach its wait for the slot (a Redis round trip), as a real job would.
        await h.redis.redis.ping();
        during(data.project, Number(context.jobId));
        return null;
      } finally {
        running -= 1;
      }
    },
    "sync.events": () => Promise.resolve(null),
    "options.add": () => Promise.resolve(null),
  };

  function settings(): Settings {
    return h.settings({ projects: [h.project(PROJECT), h.project(OTHER_PROJECT)], worker: { concurrency: 1 } });
  }

  async function addSyncs(s: Settings, project: number, count: number): Promise<string[]> {
    const data = { project, full: false, allow_mass_delete: false, trigger: "cli" as const };
    const jobs = await h
      .queue(project)
      .addBulk(Array.from({ length: count }, () => ({ name: "sync.run", data, opts: jobOptionsFor("sync.run", s.worker) })));
    return jobs.map((job) => job.id ?? "");
  }

  test("a Worker hands its slot to its queue's next job only when no other queue waits for it: a waiting queue is served first", async () => {
    // The Worker of one queue, and the process' slots, driven by hand: "another queue" is a
    // caller waiting for the one slot, which the first job's handler starts.
    const slots = createConcurrencyLimiter(1);
    const connection = createBullmqConnection(TEST_REDIS_URL, "worker");
    const queue = new Queue("slot-handover", { connection, prefix: h.redis.prefix });
    const events: string[] = [];
    let atGrant: string[] = [];
    let otherRelease: (() => void) | undefined;
    const jobs = await queue.addBulk(
      ["a", "b", "c"].map((name) => ({ name, data: {}, opts: { removeOnComplete: { age: 60 }, removeOnFail: { age: 60 } } })),
    );
    const gated = new SlotGatedWorker(
      "slot-handover",
      (job) => {
        events.push(job.name);
        if (job.name === "a") {
          void slots.acquire().then((release) => {
            atGrant = [...events];
            otherRelease = release;
          });
        }
        return Promise.resolve(null);
      },
      { connection, prefix: h.redis.prefix, slots, concurrency: 1 },
    );
    gated.on("error", () => undefined);
    try {
      await waitFor(() => otherRelease, { timeoutMs: 10_000, what: "the other queue to get the slot" });
      // It got the slot as soon as "a" ended: "b" had not started, though it was waiting.
      expect(atGrant).toEqual(["a"]);
      expect(events).toEqual(["a"]);
      otherRelease?.();
      await waitFor(async () => (await queue.getJobCounts("completed")).completed === jobs.length, {
        timeoutMs: 10_000,
        what: "every job to complete",
      });
      expect(events).toEqual(["a", "b", "c"]);
      // "b" and "c" ran back to back on one slot, given back once the run ended.
      await waitFor(() => slots.active === 0, { timeoutMs: 5_000, what: "the slot to be free" });
    } finally {
      await gated.close();
      await queue.close();
      await connection.quit();
    }
  });

  test("a project alone runs its jobs back to back on one slot, and the slot is free for another project once its run ends", async () => {
    const s = settings();
    workers.keep(await startAppWorker({ settings: s, logger: silentLogger(), handlers }));
    const first = await addSyncs(s, PROJECT, 6);
    for (const id of first) expect((await finishedJob(h.queue(PROJECT), id)).state).toBe("completed");
    const [later] = await addSyncs(s, OTHER_PROJECT, 1);
    expect((await finishedJob(h.queue(OTHER_PROJECT), later ?? "")).state).toBe("completed");
    expect(order).toEqual([...first.map(() => PROJECT), OTHER_PROJECT]);
    expect(maxRunning).toBe(1);
  });

  test("a job delayed by its upstream hands its slot to the next job without taking a second one", async () => {
    const s = settings();
    let delayed = false;
    during = (project) => {
      if (project === PROJECT && !delayed) {
        delayed = true;
        throw new SyncIncomplete(["service: 429"], 300);
      }
    };
    workers.keep(await startAppWorker({ settings: s, logger: silentLogger(), handlers }));
    // Project 99's Worker runs a job first, then waits for its queue's next one (not for a slot),
    // so project 67's Worker may hand its slot on.
    const [earlier] = await addSyncs(s, OTHER_PROJECT, 1);
    expect((await finishedJob(h.queue(OTHER_PROJECT), earlier ?? "")).state).toBe("completed");
    const jobs = await addSyncs(s, PROJECT, 4);
    for (const id of jobs) expect((await finishedJob(h.queue(PROJECT), id)).state).toBe("completed");
    const [later] = await addSyncs(s, OTHER_PROJECT, 1);
    expect((await finishedJob(h.queue(OTHER_PROJECT), later ?? "")).state).toBe("completed");
    expect(delayed).toBe(true);
    expect(order).toEqual([OTHER_PROJECT, ...Array.from({ length: 5 }, () => PROJECT), OTHER_PROJECT]);
    expect(maxRunning).toBe(1);
  });
});
