/**
 * Issue 18 §4: the fleet at the REAL budgets. W = 4 `pim-sync worker` processes (the built CLI,
 * as users run them) of concurrency C = 2 on one Redis, 16 projects that share one service
 * account and one PIM connection (the sample catalogue's 13 collections each, copied per
 * project), one full sync of each. The simulators enforce the real budgets (service 10
 * requests/s; PIM 100 requests/s, 4 in flight per connection) and record what reached them:
 *
 * - `fleet_429s`: 429 answers at either upstream (target 0);
 * - `fleet_peak_service_rps`: most service requests arriving in any 1,000 ms (target <= 10);
 * - `fleet_peak_pim_in_flight`: most PIM calls of the connection open at once (target <= 4);
 * - `fleet_ratio`: wall time (the syncs enqueued → the last one done) ÷ the floor the shared
 *   budgets allow for the requests the simulators received (bench/floor/compute-floor.ts);
 * - `limiter_overhead_us_p50/p99`: one PIM call's budgets taken and given back through Redis
 *   (bench/fleet/measure-limiter-overhead.ts);
 * - `fair_small_job_wait_ms`: bench/fleet/fair-small-job.ts.
 *
 * It does not depend on the catalogue size of a run: it runs once per run (under its first size,
 * like the queue overhead) or alone with `--scenario fleet`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { createJobQueues } from "../../src/jobs/queues/job-queues.js";
import { loadSimCatalog } from "../../sim/catalog/catalog-file.js";
import { startConfigServiceSimulator } from "../../sim/config-service/config-service-simulator.js";
import { startPimSimulator } from "../../sim/pim/pim-simulator.js";
import { defaultCatalogPath } from "../../sim/start-simulators.js";
import { DEFAULT_SEED } from "../catalog/generate-catalog.js";
import { measureFairSmallJob } from "../fleet/fair-small-job.js";
import { fleetFigures, type FleetFigures } from "../fleet/fleet-figures.js";
import { writeFleetWorkerConfig } from "../fleet/fleet-worker-config.js";
import { FLEET_CONCURRENCY, FLEET_PROCESSES, FLEET_PROJECTS } from "../fleet/fleet-shape.js";
import { measureLimiterOverhead, type LimiterOverhead } from "../fleet/measure-limiter-overhead.js";
import { round } from "../report/round.js";
import { scaleCatalog } from "../scale/scale-catalog.js";
import { spawnWorkerCommand, type WorkerProcess } from "../scale/worker-process.js";
import { openBenchRedis } from "../worker/bench-redis.js";
import type { JobQueues } from "../../src/jobs/queues/job-queues.js";
import type { PimSimulator } from "../../sim/pim/pim-simulator.js";
import type { ConfigServiceSimulator } from "../../sim/config-service/config-service-simulator.js";
import type { ScenarioContext, ScenarioResult } from "./scenario.js";

const FIRST_PROJECT = 101;
const RUN_TIMEOUT_MS = 600_000;

/** The built CLI: dist/bench/scenarios/ → dist/src/cli/bin.js. */
const CLI_PATH = fileURLToPath(new URL("../../src/cli/bin.js", import.meta.url));

const NOT_MEASURED = {
  fleet_429s: null,
  fleet_peak_service_rps: null,
  fleet_peak_pim_in_flight: null,
  fleet_ratio: null,
  limiter_overhead_us_p50: null,
  limiter_overhead_us_p99: null,
  fair_small_job_wait_ms: null,
} as const;

export interface FleetOptions {
  readonly redisUrl: string;
  readonly latencyMs: number;
  /** 16 in the benchmark; fewer to try a change quickly. */
  readonly projects?: number;
  readonly seed?: number;
  readonly progress: (message: string) => void;
}

/** The scenario in a size's run: once per run (see `measureFleet`). */
export async function runFleetScenario(context: ScenarioContext): Promise<ScenarioResult> {
  if (!context.worker.measureFleet)
    return { figures: NOT_MEASURED, measurements: {}, note: "fleet: measured once per run, under its first size" };
  try {
    return await measureFleet({ redisUrl: context.worker.redisUrl, latencyMs: context.latencyMs, progress: context.progress });
  } catch (error) {
    const note = `fleet: not measured, ${(error as Error).message}`;
    context.progress(note);
    return { figures: NOT_MEASURED, measurements: {}, note };
  }
}

export async function measureFleet(options: FleetOptions): Promise<ScenarioResult> {
  const projectCount = options.projects ?? FLEET_PROJECTS;
  const projects = Array.from({ length: projectCount }, (_, index) => FIRST_PROJECT + index);
  const catalog = scaleCatalog(await loadSimCatalog(defaultCatalogPath()), projects);
  // The simulators' default budgets are the real ones.
  const pim = await startPimSimulator({ catalog: catalog.pim, latencyMs: options.latencyMs });
  const service = await startConfigServiceSimulator({ catalog: catalog.service, pim, latencyMs: options.latencyMs });
  const dir = await mkdtemp(join(tmpdir(), "pim-sync-bench-fleet-"));
  const workers: WorkerProcess[] = [];
  let fleet: FleetPhase;
  let overhead: LimiterOverhead;
  try {
    const bench = await openBenchRedis(options.redisUrl);
    const queues = createJobQueues({
      connection: bench.redis,
      prefix: bench.prefix,
      projects,
      retention: { keep_completed_days: 1, keep_failed_days: 1 },
    });
    try {
      const configPath = await writeFleetWorkerConfig(dir, {
        redisUrl: options.redisUrl,
        prefix: bench.prefix,
        projects,
        concurrency: FLEET_CONCURRENCY,
        pimUrl: pim.url,
        serviceUrl: service.url,
      });
      for (let index = 0; index < FLEET_PROCESSES; index += 1) workers.push(spawnWorkerCommand(CLI_PATH, configPath));
      await Promise.all(workers.map((worker) => worker.started));
      fleet = await runFleetPhase({ projects, queues, workers, pim, service, latencyMs: options.latencyMs, progress: options.progress });
      // After the fleet, on the same Redis: nothing else then adds to its timings.
      overhead = await measureLimiterOverhead({ redis: bench.redis, prefix: `${bench.prefix}.limiter` });
    } finally {
      await Promise.allSettled(workers.map((worker) => worker.stop()));
      await queues.close().catch(() => undefined);
      await bench.cleanup();
    }
  } finally {
    await Promise.all([service.close(), pim.close()]);
    await rm(dir, { recursive: true, force: true });
  }
  const { figures } = fleet;
  options.progress(
    `fleet: limiter per PIM call through Redis p50 ${overhead.redisP50Us} µs, p99 ${overhead.redisP99Us} µs (in process ${overhead.processP50Us} / ${overhead.processP99Us} µs)`,
  );

  const fair = await measureFairSmallJob({
    redisUrl: options.redisUrl,
    latencyMs: options.latencyMs,
    seed: options.seed ?? DEFAULT_SEED,
    cliPath: CLI_PATH,
    progress: options.progress,
  });
  return {
    figures: {
      fleet_429s: figures.fleet_429s,
      fleet_peak_service_rps: figures.fleet_peak_service_rps,
      fleet_peak_pim_in_flight: figures.fleet_peak_pim_in_flight,
      fleet_ratio: round(figures.fleet_ratio, 3),
      limiter_overhead_us_p50: overhead.redisP50Us,
      limiter_overhead_us_p99: overhead.redisP99Us,
      fair_small_job_wait_ms: fair.waitMs,
    },
    measurements: {
      fleet: {
        processes: FLEET_PROCESSES,
        concurrency: FLEET_CONCURRENCY,
        projects: projectCount,
        wall_s: round(fleet.wallMs / 1000, 3),
        floor_s: round(figures.floor.seconds, 3),
        floor_bound_by: figures.floor.boundBy,
        pim_requests: figures.pimRequests,
        service_requests: figures.serviceRequests,
        first_service_request_s: fleet.firstServiceS,
        service_rate_while_busy: fleet.serviceRateWhileBusy,
        after_last_service_answer_s: fleet.afterLastServiceS,
        pim_429: fleet.pim429,
        service_429: fleet.service429,
        jobs_per_process: fleet.jobsPerProcess.join(" / "),
        cpu_s_per_process: fleet.cpuSeconds.map((seconds) => (seconds === null ? "-" : String(seconds))).join(" / "),
        load_average_1m: fleet.loadAverage,
      },
      limiter_overhead: {
        samples: overhead.samples,
        redis_p50_us: overhead.redisP50Us,
        redis_p99_us: overhead.redisP99Us,
        process_p50_us: overhead.processP50Us,
        process_p99_us: overhead.processP99Us,
      },
      fair_small_job: fair.measurements,
    },
    note: null,
  };
}

interface FleetPhase {
  readonly figures: FleetFigures;
  readonly wallMs: number;
  readonly pim429: number;
  readonly service429: number;
  /** Where the time above the floor went: before the first service request, the service's rate from its first arrival to its last, after its last answer. */
  readonly firstServiceS: number | null;
  readonly serviceRateWhileBusy: number | null;
  readonly afterLastServiceS: number | null;
  readonly jobsPerProcess: readonly number[];
  readonly cpuSeconds: readonly (number | null)[];
  readonly loadAverage: number;
}

async function runFleetPhase(args: {
  readonly projects: readonly number[];
  readonly queues: JobQueues;
  readonly workers: readonly WorkerProcess[];
  readonly pim: PimSimulator;
  readonly service: ConfigServiceSimulator;
  readonly latencyMs: number;
  readonly progress: (message: string) => void;
}): Promise<FleetPhase> {
  const { projects, queues, workers, pim, service } = args;
  const cpuBefore = await Promise.all(workers.map((worker) => worker.cpuSeconds()));
  pim.clearRequests();
  service.clearRequests();
  args.progress(
    `fleet: ${workers.length} processes of concurrency ${FLEET_CONCURRENCY}, a full sync of each of ${projects.length} projects sharing one service account and one PIM connection…`,
  );
  const enqueuedAt = Date.now();
  await Promise.all(projects.map((project) => queues.enqueue("sync.run", { project, full: true })));
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const counts = await Promise.all(projects.map((project) => queues.queueFor(project).getJobCounts("completed", "failed")));
    const failed = counts.reduce((sum, count) => sum + (count.failed ?? 0), 0);
    if (failed > 0) throw new Error(`fleet: ${failed} sync(s) failed`);
    const finished = workers.reduce((sum, worker) => sum + worker.runs().length, 0);
    if (counts.every((count) => count.completed === 1) && finished === projects.length) break;
    if (Date.now() > deadline) throw new Error(`fleet: the syncs did not finish within ${RUN_TIMEOUT_MS} ms`);
    await sleep(200);
  }
  const cpuAfter = await Promise.all(workers.map((worker) => worker.cpuSeconds()));
  const lastDone = Math.max(...workers.flatMap((worker) => worker.runs().map((run) => run.end)));
  const wallMs = lastDone - enqueuedAt;
  const figures = fleetFigures({ pim: pim.requests, service: service.requests, wallMs, latencyMs: args.latencyMs });
  args.progress(
    `fleet: ${round(wallMs / 1000, 2)} s against a floor of ${round(figures.floor.seconds, 2)} s (${figures.floor.boundBy}), ratio ${round(figures.fleet_ratio, 3)}; ` +
      `429s ${figures.fleet_429s}, peak service ${figures.fleet_peak_service_rps}/s, peak PIM in flight ${figures.fleet_peak_pim_in_flight}`,
  );
  const arrivals = service.requests.map((request) => request.startedAt);
  const firstArrival = Math.min(...arrivals);
  const lastArrival = Math.max(...arrivals);
  const lastAnswer = Math.max(...service.requests.map((request) => request.endedAt));
  const busy = arrivals.length > 1 && lastArrival > firstArrival;
  return {
    figures,
    wallMs,
    firstServiceS: busy ? round((firstArrival - enqueuedAt) / 1000, 3) : null,
    serviceRateWhileBusy: busy ? round(((arrivals.length - 1) * 1000) / (lastArrival - firstArrival), 2) : null,
    afterLastServiceS: busy ? round((lastDone - lastAnswer) / 1000, 3) : null,
    pim429: pim.requests.filter((request) => request.status === 429).length,
    service429: service.requests.filter((request) => request.status === 429).length,
    jobsPerProcess: workers.map((worker) => worker.runs().length),
    cpuSeconds: cpuAfter.map((after, index) => {
      const before = cpuBefore[index];
      return after === null || before === null || before === undefined ? null : round(after - before, 2);
    }),
    loadAverage: round(loadavg()[0] ?? 0, 2),
  };
}
