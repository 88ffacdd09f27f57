/**
 * Issue 12's figure: W `pim-sync worker` processes of concurrency C on one Redis, P projects with
 * a small catalogue each and J full syncs waiting per project, upstream budgets lifted (the
 * simulators' and the client's), so that the queue, not an upstream, is what is measured.
 *
 * - `slot_utilisation` (W = 4): mean running jobs ÷ (W × C), from the processes' logged job runs
 *   (target >= 0.9; a process that takes jobs it has no slot for keeps it near 1/W).
 * - `scale_efficiency`: jobs/s with W processes ÷ (W × jobs/s with 1 process of the same C). On a
 *   machine with fewer cores than processes it is bounded by the cores: each process's CPU time
 *   is reported next to it.
 */
import { writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createJobQueues } from "../../src/jobs/queues/job-queues.js";
import { jobOptionsFor } from "../../src/jobs/queues/job-options.js";
import { loadSimCatalog } from "../../sim/catalog/catalog-file.js";
import { startConfigServiceSimulator } from "../../sim/config-service/config-service-simulator.js";
import { startPimSimulator } from "../../sim/pim/pim-simulator.js";
import { defaultCatalogPath } from "../../sim/start-simulators.js";
import { round } from "../report/round.js";
import { openBenchRedis } from "../worker/bench-redis.js";
import { SIM_PIM_CREDENTIALS, SIM_SERVICE_TOKEN } from "../worker/bench-worker-settings.js";
import { scaleCatalog } from "./scale-catalog.js";
import { slotUsage } from "./slot-usage.js";
import { spawnWorkerCommand, type WorkerProcess } from "./worker-process.js";

export const SCALE_PROCESSES = 4;
export const SCALE_CONCURRENCY = 2;
export const SCALE_PROJECTS = 16;
export const SCALE_JOBS_PER_PROJECT = 3;
const FIRST_PROJECT = 101;
const RUN_TIMEOUT_MS = 300_000;
/** Far above what the scenario asks: the simulators' budgets are not what is measured. */
const LIFTED_PIM_BUDGETS = { inFlightPerConnection: 64, requestsPerSecond: 100_000, optionWritesPerSecond: 100_000 };
const LIFTED_SERVICE_REQUESTS_PER_SECOND = 100_000;

export interface ScalePhase {
  readonly processes: number;
  readonly jobs: number;
  readonly window_s: number;
  readonly jobs_per_s: number;
  readonly slot_utilisation: number;
  readonly max_running: number;
  /** CPU seconds of each worker process during the phase (start-up included), in process order. */
  readonly cpu_s: readonly (number | null)[];
  /** Each process's CPU seconds ÷ the window: 1.0 is one core busy all along. */
  readonly cpu_share: readonly (number | null)[];
  readonly jobs_per_process: readonly number[];
}

export interface ScaleResult {
  readonly figures: { readonly scale_efficiency: number; readonly slot_utilisation: number };
  readonly targets: { readonly slot_utilisation: number };
  readonly setup: {
    readonly processes: number;
    readonly concurrency: number;
    readonly projects: number;
    readonly jobs_per_project: number;
    readonly latency_ms: number;
  };
  readonly phases: readonly ScalePhase[];
}

export async function runScaleScenario(args: {
  readonly redisUrl: string;
  readonly latencyMs: number;
  readonly cliPath: string;
  readonly progress: (message: string) => void;
}): Promise<ScaleResult> {
  const projects = Array.from({ length: SCALE_PROJECTS }, (_, index) => FIRST_PROJECT + index);
  const catalog = scaleCatalog(await loadSimCatalog(defaultCatalogPath()), projects);
  const pim = await startPimSimulator({ catalog: catalog.pim, latencyMs: args.latencyMs, budgets: LIFTED_PIM_BUDGETS });
  const service = await startConfigServiceSimulator({
    catalog: catalog.service,
    pim,
    latencyMs: args.latencyMs,
    requestsPerSecond: LIFTED_SERVICE_REQUESTS_PER_SECOND,
  });
  const dir = await mkdtemp(join(tmpdir(), "pim-sync-bench-scale-"));
  try {
    const phase = async (processes: number): Promise<ScalePhase> => {
      const bench = await openBenchRedis(args.redisUrl);
      const workers: WorkerProcess[] = [];
      const queues = createJobQueues({
        connection: bench.redis,
        prefix: bench.prefix,
        projects,
        retention: { keep_completed_days: 1, keep_failed_days: 1 },
      });
      try {
        const configPath = join(dir, `config-${processes}.json`);
        await writeFile(
          configPath,
          JSON.stringify(
            scaleConfig({ redisUrl: args.redisUrl, prefix: bench.prefix, projects, pimUrl: pim.url, serviceUrl: service.url }),
          ),
        );
        for (let index = 0; index < processes; index += 1) workers.push(spawnWorkerCommand(args.cliPath, configPath));
        await Promise.all(workers.map((worker) => worker.started));
        const cpuBefore = await Promise.all(workers.map((worker) => worker.cpuSeconds()));
        const total = projects.length * SCALE_JOBS_PER_PROJECT;
        args.progress(
          `scale: ${processes} process(es) of concurrency ${SCALE_CONCURRENCY}, ${total} full syncs over ${projects.length} projects…`,
        );
        const options = jobOptionsFor("sync.run", { keep_completed_days: 1, keep_failed_days: 1 });
        // Straight onto the queues: the sync.run enqueue policy's deduplication would merge a project's syncs.
        await Promise.all(
          projects.map((project) =>
            queues.queueFor(project).addBulk(
              Array.from({ length: SCALE_JOBS_PER_PROJECT }, () => ({
                name: "sync.run",
                data: { project, full: true, allow_mass_delete: false, trigger: "cli" },
                opts: options,
              })),
            ),
          ),
        );
        const deadline = Date.now() + RUN_TIMEOUT_MS;
        for (;;) {
          const counts = await Promise.all(projects.map((project) => queues.queueFor(project).getJobCounts("completed", "failed")));
          const failed = counts.reduce((sum, count) => sum + (count.failed ?? 0), 0);
          if (failed > 0) throw new Error(`scale: ${failed} job(s) failed`);
          const finished = workers.reduce((sum, worker) => sum + worker.runs().length, 0);
          if (counts.every((count) => count.completed === SCALE_JOBS_PER_PROJECT) && finished === total) break;
          if (Date.now() > deadline) throw new Error(`scale: the jobs did not finish within ${RUN_TIMEOUT_MS} ms`);
          await sleep(200);
        }
        const cpuAfter = await Promise.all(workers.map((worker) => worker.cpuSeconds()));
        const usage = slotUsage(
          workers.flatMap((worker) => worker.runs()),
          processes * SCALE_CONCURRENCY,
        );
        if (!usage) throw new Error("scale: no job run measured");
        const windowS = usage.windowMs / 1000;
        const cpu = cpuAfter.map((after, index) => {
          const before = cpuBefore[index];
          return after === null || before === null || before === undefined ? null : round(after - before, 2);
        });
        const measured: ScalePhase = {
          processes,
          jobs: total,
          window_s: round(windowS, 2),
          jobs_per_s: round(usage.jobsPerSecond, 2),
          slot_utilisation: round(usage.slotUtilisation, 3),
          max_running: usage.maxRunning,
          cpu_s: cpu,
          cpu_share: cpu.map((seconds) => (seconds === null ? null : round(seconds / windowS, 2))),
          jobs_per_process: workers.map((worker) => worker.runs().length),
        };
        args.progress(
          `scale: ${processes} process(es): ${measured.jobs_per_s} jobs/s, slot utilisation ${measured.slot_utilisation}, CPU s ${cpu.join(" / ")}`,
        );
        return measured;
      } finally {
        await Promise.allSettled(workers.map((worker) => worker.stop()));
        await queues.close().catch(() => undefined);
        await bench.cleanup();
      }
    };

    const single = await phase(1);
    const scaled = await phase(SCALE_PROCESSES);
    return {
      figures: {
        scale_efficiency: round(scaled.jobs_per_s / (SCALE_PROCESSES * single.jobs_per_s), 3),
        slot_utilisation: scaled.slot_utilisation,
      },
      targets: { slot_utilisation: 0.9 },
      setup: {
        processes: SCALE_PROCESSES,
        concurrency: SCALE_CONCURRENCY,
        projects: SCALE_PROJECTS,
        jobs_per_project: SCALE_JOBS_PER_PROJECT,
        latency_ms: args.latencyMs,
      },
      phases: [single, scaled],
    };
  } finally {
    await Promise.all([service.close(), pim.close()]);
    await rm(dir, { recursive: true, force: true });
  }
}

/** The workers' config: every project on the simulators, the client's budgets at their maxima. */
function scaleConfig(args: {
  readonly redisUrl: string;
  readonly prefix: string;
  readonly projects: readonly number[];
  readonly pimUrl: string;
  readonly serviceUrl: string;
}): Record<string, unknown> {
  return {
    redis: { url: args.redisUrl, prefix: args.prefix },
    log_level: "info",
    worker: { concurrency: SCALE_CONCURRENCY },
    projects: args.projects.map((id) => ({
      id,
      pim: { url: args.pimUrl, ...SIM_PIM_CREDENTIALS, max_in_flight: 10, requests_per_second: 1000, option_writes_per_second: 100 },
      service: { url: args.serviceUrl, token: SIM_SERVICE_TOKEN, requests_per_second: 100 },
    })),
  };
}
