/**
 * SIGKILL of the worker process running a sync, at seeded random points of the run, with a
 * second worker process beside it. After each: the second worker recovers the job (stalled
 * check), the service ends where a clean sync ends, no option the PIM had was deleted, and no
 * job failed. Replay a run with PIM_SYNC_CHAOS_SEED=<seed from the test name>.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { JobQueues } from "../../../src/jobs/queues/job-queues.js";
import { startSimulators, type RunningSimulators } from "../../../sim/start-simulators.js";
import { assertCliBuilt, killLeftoverProcesses, startWorkerCli, waitForExit, type CliProcess } from "../../support/process-cli.js";
import { writeTestConfig } from "../../support/process-config.js";
import { cleanSyncEndState, collectionsOf, openTestQueues, waitForJobState, type CollectionsByName } from "../../support/process-jobs.js";
import { waitFor } from "../../support/wait-for.js";
import { createConfigSafeTestRedis } from "../../support/process-redis.js";
import type { TestRedis } from "../../support/redis.js";
import { startSyncHarness } from "../../support/sync-harness.js";
import { CHAOS_SIZES, chaosSeed, seededRandom } from "../support/chaos-scale.js";
import { chaosCounters } from "../support/chaos-results.js";
import { watchWrites, type WriteWatch } from "../support/write-watch.js";

const PROJECT = 67;
const SEED = chaosSeed();
const random = seededRandom(SEED);
/** Where each kill lands, as a fraction of the requests a clean run makes. */
const POINTS = Array.from({ length: CHAOS_SIZES.sigkillPoints }, (_, index) => ({ index: index + 1, fraction: random() }));

describe(`chaos: SIGKILL of a worker mid-sync, two workers (seed ${SEED})`, () => {
  const results = chaosCounters("worker-sigkill");
  let reference: CollectionsByName;
  /** Requests (PIM and service) a clean sync makes: the span the kill points are drawn from. */
  let requestsOfCleanRun: number;
  let sims: RunningSimulators | undefined;
  let redis: TestRedis | undefined;
  let queues: JobQueues | undefined;
  let dir: string | undefined;
  let watch: WriteWatch | undefined;

  beforeAll(async () => {
    assertCliBuilt();
    reference = (await cleanSyncEndState()).collections;
    const measure = await startSyncHarness();
    try {
      await measure.sync();
      requestsOfCleanRun = measure.pim.requests.length + measure.service.requests.length;
    } finally {
      await measure.close();
    }
  });

  afterEach(async () => {
    watch?.stop();
    await killLeftoverProcesses();
    await queues?.close();
    await sims?.close();
    await redis?.cleanup();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it.each(POINTS)("kill $index of " + POINTS.length + " (at $fraction of the run)", async ({ fraction }) => {
    sims = await startSimulators();
    sims.pim.setLatencyMs(30);
    const running = sims;
    redis = await createConfigSafeTestRedis();
    queues = openTestQueues(redis);
    dir = await mkdtemp(join(tmpdir(), "pim-sync-chaos-kill-"));
    watch = watchWrites(running.service, running.pim);
    const configPath = await writeTestConfig(dir, {
      pimUrl: running.pim.url,
      serviceUrl: running.service.url,
      redisPrefix: redis.prefix,
      logLevel: "info",
      // 4 writes a second: the run lasts a few seconds, so the points spread over it.
      serviceExtras: { requests_per_second: 4 },
    });
    const workers: CliProcess[] = await Promise.all([startWorkerCli(configPath), startWorkerCli(configPath)]);

    const { jobId } = await queues.enqueue("sync.run", { project: PROJECT, trigger: "cli" });
    const killAt = Math.max(1, Math.ceil(fraction * requestsOfCleanRun));
    await waitFor(() => running.pim.requests.length + running.service.requests.length >= killAt, {
      timeoutMs: 30_000,
      what: `${killAt} requests of the sync`,
    });
    const holder = workers.find((worker) => worker.logs().some((line) => line.msg === "job started" && line.job === jobId));
    expect(holder, "no worker logged the start of the job").toBeDefined();
    const victim = holder ?? workers[0];
    if (victim === undefined) throw new Error("no worker to kill");
    victim.signal("SIGKILL");
    expect(await waitForExit(victim, 10_000)).toEqual({ code: null, signal: "SIGKILL" });

    const done = await waitForJobState(queues, PROJECT, jobId, "completed", 60_000);
    expect(done.failedReason ?? "").toBe("");
    expect(await queues.queueFor(PROJECT).getJobs(["failed"], 0, -1)).toEqual([]);
    expect(collectionsOf(running.service)).toEqual(reference);
    expect(watch.lost).toEqual([]);
    results.add({ sigkillsSurvived: 1, faultsInjected: 1, faultScenarios: 1, optionsLost: watch.lost.length });

    const survivor = workers.find((worker) => worker !== victim);
    survivor?.signal("SIGTERM");
    if (survivor !== undefined) expect(await waitForExit(survivor, 30_000)).toEqual({ code: 0, signal: null });
  });
});
