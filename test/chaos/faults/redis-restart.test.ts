/**
 * Redis stopped (SIGKILL, no persistence: every key lost) and started again in the middle of a
 * sync run by a worker process. After it: the worker is still up, a follow-up sync ends where a
 * clean sync ends, no option the PIM had was deleted, and the project's safety settings (the
 * queue's global concurrency of 1, the job scheduler) are back without restarting the worker.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBullmqConnection } from "../../../src/jobs/queues/create-bullmq-connection.js";
import { createJobQueues, type JobQueues } from "../../../src/jobs/queues/job-queues.js";
import { SYNC_SCHEDULER_ID } from "../../../src/infra/redis/queue-names.js";
import { startSimulators, type RunningSimulators } from "../../../sim/start-simulators.js";
import { assertCliBuilt, killLeftoverProcesses, startWorkerCli, waitForExit, type CliProcess } from "../../support/process-cli.js";
import { testConfigObject } from "../../support/process-config.js";
import { cleanSyncEndState, collectionsOf, waitForJobState, type CollectionsByName } from "../../support/process-jobs.js";
import { waitFor } from "../../support/wait-for.js";
import { chaosCounters } from "../support/chaos-results.js";
import { startOwnRedisServer as startOwnRedis, type OwnRedisServer as OwnRedis } from "../../../testkit/own-redis-server.js";
import { watchWrites, type WriteWatch } from "../support/write-watch.js";

const PROJECT = 67;
const PREFIX = "chaos";
const isWrite = (request: { method: string; path: string; status: number }): boolean =>
  request.method === "PATCH" && /\/update-options\/$/.test(request.path) && request.status === 200;

describe("chaos: Redis stopped and restarted mid-run", () => {
  const results = chaosCounters("redis-restart");
  let reference: CollectionsByName;
  let sims: RunningSimulators;
  let redis: OwnRedis;
  let dir: string;
  let watch: WriteWatch;
  const connections: Redis[] = [];
  const openQueues: JobQueues[] = [];

  beforeAll(async () => {
    assertCliBuilt();
    reference = (await cleanSyncEndState()).collections;
  });

  beforeEach(async () => {
    sims = await startSimulators();
    // Slow enough that Redis goes away in the middle of the run.
    sims.pim.setLatencyMs(50);
    redis = await startOwnRedis();
    dir = await mkdtemp(join(tmpdir(), "pim-sync-chaos-redis-"));
    watch = watchWrites(sims.service, sims.pim);
  });

  afterEach(async () => {
    watch.stop();
    await killLeftoverProcesses();
    await Promise.allSettled(openQueues.splice(0).map((queues) => queues.close()));
    for (const connection of connections.splice(0)) connection.disconnect();
    await redis.close();
    await sims.close();
    await rm(dir, { recursive: true, force: true });
  });

  function producerQueues(): JobQueues {
    const connection = createBullmqConnection(redis.url, "worker");
    // While Redis is down the connection reports each refused reconnect; it is expected here.
    connection.on("error", () => undefined);
    connections.push(connection);
    const queues = createJobQueues({
      connection,
      prefix: PREFIX,
      projects: [PROJECT],
      retention: { keep_completed_days: 1, keep_failed_days: 1 },
    });
    openQueues.push(queues);
    return queues;
  }

  it("the worker survives, a follow-up sync ends clean, nothing the PIM has is deleted, safety settings come back", async () => {
    const config = testConfigObject({
      pimUrl: sims.pim.url,
      serviceUrl: sims.service.url,
      redisPrefix: PREFIX,
      logLevel: "info",
      serviceExtras: { requests_per_second: 3 },
      // A yearly schedule: never fires during the test, but its job scheduler must exist.
      projectExtras: { schedule: { cron: "0 0 1 1 *" } },
    });
    const configPath = join(dir, "config.json");
    await writeFile(configPath, JSON.stringify({ ...config, redis: { url: redis.url, prefix: PREFIX } }));
    const worker: CliProcess = await startWorkerCli(configPath);

    const queues = producerQueues();
    const queue = queues.queueFor(PROJECT);
    expect(await queue.getGlobalConcurrency()).toBe(1);
    expect(await queue.getJobScheduler(SYNC_SCHEDULER_ID)).toBeDefined();
    await queues.enqueue("sync.run", { project: PROJECT, trigger: "cli" });
    await waitFor(() => sims.service.requests.some(isWrite), { timeoutMs: 20_000, what: "a first update-options write" });

    watch.phase("redis down");
    await redis.kill();
    await redis.start();
    watch.phase("after restart");
    expect(worker.hasExited(), `the worker died with Redis:\n${worker.stderr().slice(-2000)}`).toBe(false);

    // The first job went with Redis' data. A follow-up sync, through the restarted Redis.
    const followUp = producerQueues();
    const { jobId } = await followUp.enqueue("sync.run", { project: PROJECT, trigger: "cli" });
    const done = await waitForJobState(followUp, PROJECT, jobId, "completed", 60_000);
    expect(done.failedReason ?? "").toBe("");
    expect(collectionsOf(sims.service)).toEqual(reference);
    expect(watch.lost).toEqual([]);
    results.add({ redisRestartsSurvived: 1, faultsInjected: 1, faultScenarios: 1, optionsLost: watch.lost.length });

    // Issue 7, defect 11: the settings that keep a project's jobs one at a time, and its
    // schedule, are re-asserted once the connection is back, without a worker restart.
    const restored = followUp.queueFor(PROJECT);
    await waitFor(async () => (await restored.getGlobalConcurrency()) === 1, {
      timeoutMs: 15_000,
      what: "the project queue's global concurrency of 1 to be re-asserted after the Redis restart",
    });
    await waitFor(async () => (await restored.getJobScheduler(SYNC_SCHEDULER_ID)) !== undefined, {
      timeoutMs: 15_000,
      what: "the project's job scheduler to be re-asserted after the Redis restart",
    });

    worker.signal("SIGTERM");
    expect(await waitForExit(worker, 30_000)).toEqual({ code: 0, signal: null });
  });
});
