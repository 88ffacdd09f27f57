/**
 * Upgrading loses nothing: the worker starts on keys written by pim-sync 0.1.0 (one BullMQ Worker
 * per project queue; test/fixtures/upgrade/queues-0.1.0.json, captured with that release before
 * the queues' wake-ups were read on one connection) and runs every job waiting or due exactly
 * once, keeps the failed job failed, the job delayed for years delayed, the schedule with its one
 * next run, and an Idempotency-Key of the old layout still answers "duplicate".
 */
import { readFileSync } from "node:fs";
import { describe, expect, onTestFinished } from "vitest";
import type { JobHandlers } from "../../../../src/jobs/catalog/job-handlers.js";
import type { RedisClient } from "../../../../src/infra/redis/redis-client.js";
import { SYNC_SCHEDULER_ID } from "../../../../src/infra/redis/queue-names.js";
import { startAppWorker } from "../../../support/app-worker.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { finishedJob, jobInState, OTHER_PROJECT, PROJECT, type WorkerHarness } from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test, type WorkersFixture } from "../../../support/fixtures.js";

interface FixtureKey {
  readonly key: string;
  readonly type: "string" | "hash" | "list" | "set" | "zset" | "stream";
  readonly pttl: number;
  readonly value: unknown;
}
interface Fixture {
  readonly prefix: string;
  readonly keys: readonly FixtureKey[];
}

const FIXTURE = JSON.parse(readFileSync(new URL("../../../fixtures/upgrade/queues-0.1.0.json", import.meta.url), "utf8")) as Fixture;
/** The job that an old Worker failed for good, in project 67. */
const FAILED = "1";
const DELAYED_FOR_YEARS = "5";

/** Writes the fixture's keys under `prefix`, the old prefix replaced in names and values. */
async function restore(redis: RedisClient, prefix: string): Promise<void> {
  const swap = (text: string): string => text.split(`${FIXTURE.prefix}:`).join(`${prefix}:`);
  for (const entry of FIXTURE.keys) {
    if (entry.key.endsWith(":stalled-check")) continue; // the old Worker's lock of its last stalled-job check
    const key = `${prefix}:${entry.key}`;
    switch (entry.type) {
      case "string":
        await redis.set(key, swap(entry.value as string));
        break;
      case "hash":
        await redis.hset(key, Object.fromEntries(Object.entries(entry.value as Record<string, string>).map(([f, v]) => [f, swap(v)])));
        break;
      case "list":
        await redis.rpush(key, ...(entry.value as string[]).map(swap));
        break;
      case "set":
        await redis.sadd(key, ...(entry.value as string[]).map(swap));
        break;
      case "zset": {
        const flat = entry.value as string[];
        for (let i = 0; i + 1 < flat.length; i += 2) await redis.zadd(key, flat[i + 1] as string, swap(flat[i] as string));
        break;
      }
      case "stream":
        for (const { id, fields } of entry.value as { id: string; fields: string[] }[]) await redis.xadd(key, id, ...fields.map(swap));
        break;
    }
    if (entry.pttl > 0) await redis.pexpire(key, entry.pttl);
  }
}

describe("worker: upgrade from 0.1.0's queue keys", () => {
  let h: WorkerHarness;
  let workers: WorkersFixture;
  test.beforeEach(async ({ harness, workers: fixture }) => {
    [h, workers] = [await harness.start(), fixture];
  });

  test("every job waiting or due runs exactly once; failed, long-delayed and scheduled ones are kept", async () => {
    await restore(h.redis.redis, h.redis.prefix);
    const runs: string[] = [];
    const record = (project: number, jobId: string): Promise<null> => {
      runs.push(`${project}/${jobId}`);
      return Promise.resolve(null);
    };
    const handlers: JobHandlers = {
      "sync.run": (data, context) => record(data.project, context.jobId),
      "sync.events": (data, context) => record(data.project, context.jobId),
      "options.add": (data, context) => record(data.project, context.jobId),
    };
    const settings = h.settings({
      projects: [h.project(PROJECT), h.project(OTHER_PROJECT, { schedule: { cron: "0 0 1 1 *", timezone: "UTC" } })],
      worker: { concurrency: 2 },
    });
    const optionsJob = "add-1f1970bddbbed943d34fa13cee17b69d";
    const expected = [`${PROJECT}/3`, `${PROJECT}/4`, `${PROJECT}/${optionsJob}`, `${OTHER_PROJECT}/1`];
    // A job delayed past a timer's 2^31 - 1 ms must not become a 1 ms timer (Node warns when it
    // does): the worker would wake for that queue every millisecond while the job waits.
    const overflows: string[] = [];
    const onWarning = (warning: Error): void => {
      if (warning.name === "TimeoutOverflowWarning") overflows.push(warning.message);
    };
    process.on("warning", onWarning);
    onTestFinished(() => void process.off("warning", onWarning));
    workers.keep(await startAppWorker({ settings, logger: silentLogger(), handlers }));

    for (const id of ["3", "4", optionsJob]) expect((await finishedJob(h.queue(PROJECT), id)).state).toBe("completed");
    expect((await finishedJob(h.queue(OTHER_PROJECT), "1")).state).toBe("completed");
    // Nothing else becomes active: what is left waits for years (or failed for good).
    await waitFor(
      async () => {
        const counts = await Promise.all(
          [h.queue(PROJECT), h.queue(OTHER_PROJECT)].map((q) => q.getJobCounts("waiting", "active", "prioritized")),
        );
        return counts.every((c) => (c.waiting ?? 0) + (c.active ?? 0) + (c.prioritized ?? 0) === 0);
      },
      { timeoutMs: 15_000, what: "both queues to have nothing waiting or active" },
    );
    expect([...runs].sort()).toEqual([...expected].sort());

    expect((await jobInState(h.queue(PROJECT), FAILED, ["failed"]))?.job.failedReason).toBe("fixture: failed for good");
    expect(await h.queue(PROJECT).getJobState(DELAYED_FOR_YEARS)).toBe("delayed");
    const scheduler = await h.queue(OTHER_PROJECT).getJobScheduler(SYNC_SCHEDULER_ID);
    expect(scheduler?.pattern).toBe("0 0 1 1 *");
    const scheduled = (await h.queue(OTHER_PROJECT).getDelayed()).filter((job) => job.repeatJobKey === SYNC_SCHEDULER_ID);
    expect(scheduled).toHaveLength(1);

    const again = await h.queues.enqueue(
      "options.add",
      { project: PROJECT, attribute: "color", options: [{ name: "fixture_red", label: { "en-US": "Red" } }] },
      { idempotencyKey: "fixture-key-1" },
    );
    expect(again).toEqual({ project: PROJECT, jobId: optionsJob, status: "duplicate" });
    expect(runs).toHaveLength(expected.length);
    expect(overflows, "timers past 2^31 - 1 ms").toEqual([]);
  });
});
