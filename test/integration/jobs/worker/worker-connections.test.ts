/**
 * A worker process' Redis connections do not grow with its projects: one connection reads every
 * project queue's wake-up (queue-wake-ups.ts) instead of a BullMQ Worker's blocking connection
 * per project. Counted by name in CLIENT LIST (every connection the worker opens carries the
 * test's prefix); the shared test Redis serves other tests meanwhile, whose names differ.
 */
import { Queue } from "bullmq";
import { describe, expect } from "vitest";
import type { JobHandlers } from "../../../../src/jobs/catalog/job-handlers.js";
import { jobOptionsFor } from "../../../../src/jobs/queues/job-options.js";
import { keyspaceOf } from "../../../../src/infra/redis/keyspace.js";
import { startAppWorker } from "../../../support/app-worker.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { finishedJob, type WorkerHarness } from "../../../support/worker-harness.js";
import { test, type WorkersFixture } from "../../../support/fixtures.js";

const MAX_CONNECTIONS = 16;

describe("worker: Redis connections independent of the project count", () => {
  let h: WorkerHarness;
  let workers: WorkersFixture;
  test.beforeEach(async ({ harness, workers: fixture }) => {
    [h, workers] = [await harness.start(), fixture];
  });

  const ran: string[] = [];
  const handlers: JobHandlers = {
    "sync.run": (data) => {
      ran.push(`sync.run ${data.project}`);
      return Promise.resolve(null);
    },
    "sync.events": () => Promise.resolve(null),
    "options.add": () => Promise.resolve(null),
  };

  async function connectionsOf(prefix: string): Promise<string[]> {
    const list = String(await h.redis.redis.call("CLIENT", "LIST"));
    return list
      .split("\n")
      .map((line) => /\bname=(\S*)/.exec(line)?.[1] ?? "")
      .filter((name) => name.startsWith(`${prefix}:`));
  }

  /** Starts a worker of `count` projects, runs one job on its last project, and counts its connections. */
  async function connectionsWith(count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, (_, index) => 1000 + index);
    const settings = h.settings({ projects: ids.map((id) => h.project(id)), worker: { concurrency: 2 } });
    const worker = workers.keep(await startAppWorker({ settings, logger: silentLogger(), handlers }));
    const last = ids.at(-1) ?? 0;
    const queue = new Queue(keyspaceOf(h.redis.redis, h.redis.prefix).projectQueue(last), {
      connection: h.redis.redis,
      prefix: h.redis.prefix,
    });
    try {
      const job = await queue.add(
        "sync.run",
        { project: last, full: false, allow_mass_delete: false, trigger: "cli" },
        jobOptionsFor("sync.run", settings.worker),
      );
      expect((await finishedJob(queue, job.id ?? "")).state).toBe("completed");
      return await connectionsOf(h.redis.prefix);
    } finally {
      await queue.close();
      await worker.stop();
    }
  }

  test("a worker of 50 projects holds as many connections as one of 5, at most 16, and serves its projects", async () => {
    const five = await connectionsWith(5);
    const fifty = await connectionsWith(50);
    expect(fifty.length).toBe(five.length);
    expect(fifty.length).toBeLessThanOrEqual(MAX_CONNECTIONS);
    expect(ran).toEqual(["sync.run 1004", "sync.run 1049"]);
  });
});
