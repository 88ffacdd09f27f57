/**
 * Figure 6: what pim-sync's worker costs per job over a bare BullMQ worker, on jobs that do
 * nothing (target: it keeps >= 0.9 of the bare worker's throughput).
 *
 * pim-sync side: `startWorker` with no-op handlers, `sync.run` jobs added in one `addBulk` on its
 * project queue (not through `enqueue("sync.run", …)`, whose deduplication would merge them), so every job
 * goes through its processor (data parsed again, a logger per job, the process-wide slots, the
 * job's timeout signal). Bare side: `new Worker(queue, async () => null, { concurrency: 1 })` on
 * another queue of the same Redis, the same jobs (same data, same options). Each is timed from
 * the first job starting to the last completing, on the queue's event stream.
 *
 * pim-sync runs one job at a time per project (the queue's global concurrency is 1, and each
 * worker takes one at a time), so the fair comparison is a bare worker of concurrency 1. Two
 * more bare workers give context: concurrency 1 on a queue with global concurrency 1 (the cost
 * of that check alone), and concurrency 8 (what a queue without pim-sync's one-at-a-time rule
 * reaches). After a warm-up, each round runs every variant once (in reverse order every other
 * round); a rate is the median of the rounds, and the figure the median of the rounds' ratios
 * (pim-sync / bare, concurrency 1): the machine may be shared, and a round's two measurements,
 * back to back, share its conditions.
 *
 * The figure does not depend on the catalogue: it is measured once per run, under its first size.
 */
import { Queue, Worker, type JobsOptions } from "bullmq";
import type { Redis } from "ioredis";
import { createBullmqConnection } from "../../src/jobs/queues/create-bullmq-connection.js";
import type { JobInput } from "../../src/jobs/catalog/job-catalog.js";
import { jobOptionsFor, type JobRetention } from "../../src/jobs/queues/job-options.js";
import type { JobHandlers } from "../../src/jobs/catalog/job-handlers.js";
import { createApp, type App } from "../../src/app/create-app.js";
import { startWorkerApp } from "../../src/app/start-worker-app.js";
import { createLogger } from "../../src/infra/log/create-logger.js";
import { BENCH_PROJECT } from "../catalog/generate-catalog.js";
import { round } from "../report/round.js";
import { openBenchRedis, type BenchRedis } from "../worker/bench-redis.js";
import { benchWorkerSettings } from "../worker/bench-worker-settings.js";
import { jobsPerSecond, median, medianPairedRatio } from "../worker/queue-run-summary.js";
import { streamPosition, waitForQueueRun } from "../worker/wait-for-queue-run.js";
import type { ScenarioContext, ScenarioResult } from "./scenario.js";
import { redactorOfSettings } from "../../src/infra/secrets/redactor-of-settings.js";

export const QUEUE_OVERHEAD_JOBS = 2000;
export const QUEUE_OVERHEAD_ROUNDS = 7;
/**
 * Jobs each variant runs before the rounds, unmeasured: a worker's throughput climbs for its
 * first 2,000–3,000 jobs (JIT), and a long-running worker is measured, not a cold one.
 */
const WARMUP_JOBS = 3000;
/** Jobs per warm-up run: BullMQ keeps about 10,000 events (4 per job) and a run is read from them. */
const WARMUP_CHUNK = 1000;
const MEASURE_TIMEOUT_MS = 120_000;

export const NO_OP_HANDLERS: JobHandlers = {
  "sync.run": () => Promise.resolve(null),
  "sync.events": () => Promise.resolve(null),
  "options.add": () => Promise.resolve(null),
};

export const QUEUE_OVERHEAD_ONCE_NOTE =
  "queue_overhead_ratio: does not depend on the catalogue; measured once per run, under its first size";

/** The options pim-sync gives its sync jobs (job-options.ts), deduplication aside; both sides use them. */
export function syncJobOptions(retention: JobRetention): JobsOptions {
  return jobOptionsFor("sync.run", retention);
}

interface Variant {
  readonly key: "pimsync" | "bare_c1" | "bare_c1_global" | "bare_c8";
  readonly label: string;
  readonly queue: Queue;
}

export async function runQueueOverheadScenario(context: ScenarioContext): Promise<ScenarioResult> {
  if (!context.worker.measureQueueOverhead)
    return { figures: { queue_overhead_ratio: null }, measurements: {}, note: QUEUE_OVERHEAD_ONCE_NOTE };
  return measureQueueOverhead({
    redisUrl: context.worker.redisUrl,
    pimUrl: context.pim.url,
    serviceUrl: context.service.url,
    progress: context.progress,
  });
}

/**
 * The measurement itself, also run alone by `npm run bench -- --scenario queue-overhead`. The
 * no-op handlers never call the upstreams: their URLs only make the worker's config valid.
 */
export async function measureQueueOverhead(context: {
  readonly redisUrl: string;
  readonly pimUrl: string;
  readonly serviceUrl: string;
  progress(message: string): void;
}): Promise<ScenarioResult> {
  const { redisUrl } = context;
  let bench: BenchRedis;
  try {
    bench = await openBenchRedis(redisUrl);
  } catch (error) {
    const note = `queue_overhead_ratio: not measured, ${(error as Error).message}`;
    context.progress(note);
    return { figures: { queue_overhead_ratio: null }, measurements: {}, note };
  }
  const settings = benchWorkerSettings({
    redisUrl,
    prefix: bench.prefix,
    project: BENCH_PROJECT,
    pimUrl: context.pimUrl,
    serviceUrl: context.serviceUrl,
  });
  const data: JobInput<"sync.run"> = { project: BENCH_PROJECT, full: false, allow_mass_delete: false, trigger: "cli" };
  const options = syncJobOptions(settings.worker);
  let app: App | null = null;
  // Like startWorker: one connection for the queue and the worker (BullMQ adds its blocking one).
  const bareConnection: Redis = createBullmqConnection(redisUrl, "worker");
  const bareQueues: Queue[] = [];
  const bareWorkers: Worker[] = [];
  try {
    context.progress(
      `queue overhead: ${QUEUE_OVERHEAD_ROUNDS} rounds of ${QUEUE_OVERHEAD_JOBS} no-op jobs, pim-sync worker and bare BullMQ workers…`,
    );
    app = createApp(settings, {
      logger: createLogger({ level: settings.log_level, redactor: redactorOfSettings(settings) }),
      role: "worker",
      worker: { handlers: NO_OP_HANDLERS },
    });
    const worker = await startWorkerApp(app);
    if (worker === null) throw new Error("the worker did not start");
    const bare = async (name: string, concurrency: number, globalConcurrency: boolean): Promise<Queue> => {
      const queue = new Queue(name, { connection: bareConnection, prefix: bench.prefix });
      bareQueues.push(queue);
      if (globalConcurrency) await queue.setGlobalConcurrency(1);
      const bareWorker = new Worker(name, () => Promise.resolve(null), { connection: bareConnection, prefix: bench.prefix, concurrency });
      bareWorker.on("error", (error) => context.progress(`queue overhead: bare worker ${name}: ${error.message}`));
      bareWorkers.push(bareWorker);
      return queue;
    };
    const variants: Variant[] = [
      { key: "pimsync", label: "pim-sync worker", queue: worker.queues.queueFor(BENCH_PROJECT) },
      { key: "bare_c1", label: "bare, concurrency 1", queue: await bare("bench-bare-c1", 1, false) },
      { key: "bare_c1_global", label: "bare, concurrency 1, global 1", queue: await bare("bench-bare-c1-global", 1, true) },
      { key: "bare_c8", label: "bare, concurrency 8", queue: await bare("bench-bare-c8", 8, false) },
    ];

    /** Jobs per second, and the benchmark process's CPU per job (ms) while they ran. */
    const measure = async (variant: Variant, jobs: number): Promise<{ rate: number; cpuMsPerJob: number }> => {
      const after = await streamPosition(bench.redis, variant.queue);
      const cpuBefore = process.cpuUsage();
      await variant.queue.addBulk(Array.from({ length: jobs }, () => ({ name: "sync.run", data, opts: options })));
      const summary = await waitForQueueRun({ redis: bench.redis, queue: variant.queue, after, jobs, timeoutMs: MEASURE_TIMEOUT_MS });
      const cpu = process.cpuUsage(cpuBefore);
      const rate = jobsPerSecond(jobs, summary.firstActiveMs, summary.lastFinishedMs);
      if (rate === null)
        throw new Error(`queue overhead: ${variant.label}: no measurable span (${summary.firstActiveMs} → ${summary.lastFinishedMs})`);
      if (summary.requeued > 0) throw new Error(`queue overhead: ${variant.label}: ${summary.requeued} no-op job(s) were retried`);
      return { rate, cpuMsPerJob: (cpu.user + cpu.system) / 1000 / jobs };
    };

    for (const variant of variants) {
      for (let done = 0; done < WARMUP_JOBS; done += WARMUP_CHUNK) await measure(variant, WARMUP_CHUNK);
    }
    const rates = new Map<Variant["key"], number[]>(variants.map((variant) => [variant.key, []]));
    const cpuPerJob = new Map<Variant["key"], number[]>(variants.map((variant) => [variant.key, []]));
    for (let roundIndex = 0; roundIndex < QUEUE_OVERHEAD_ROUNDS; roundIndex += 1) {
      // Every other round in reverse order, so that a drift (warming up, load) favours no one.
      for (const variant of roundIndex % 2 === 0 ? variants : [...variants].reverse()) {
        const measured = await measure(variant, QUEUE_OVERHEAD_JOBS);
        rates.get(variant.key)?.push(measured.rate);
        cpuPerJob.get(variant.key)?.push(measured.cpuMsPerJob);
      }
      const line = variants.map((variant) => `${variant.label} ${Math.round(rates.get(variant.key)?.[roundIndex] ?? 0)}`).join(", ");
      context.progress(`queue overhead: round ${roundIndex + 1}: jobs/s ${line}`);
    }

    const of = (key: Variant["key"]): number[] => rates.get(key) ?? [];
    const pimsync = median(of("pimsync"));
    const bareC1 = median(of("bare_c1"));
    if (pimsync === null || bareC1 === null) throw new Error("queue overhead: no rate measured");
    const ratio = medianPairedRatio(of("pimsync"), of("bare_c1"));
    if (ratio === null) throw new Error("queue overhead: no ratio measured");
    const roundRatios = of("pimsync").map((rate, index) => rate / (of("bare_c1")[index] ?? Number.NaN));
    const perJobMs = (rate: number | null): number | null => (rate === null ? null : round(1000 / rate, 3));
    return {
      figures: { queue_overhead_ratio: round(ratio, 4) },
      measurements: {
        queue_overhead: {
          jobs: QUEUE_OVERHEAD_JOBS,
          rounds: QUEUE_OVERHEAD_ROUNDS,
          pimsync_jobs_per_s: round(pimsync, 1),
          bare_c1_jobs_per_s: round(bareC1, 1),
          bare_c1_global_jobs_per_s: nullableRound(median(of("bare_c1_global")), 1),
          bare_c8_jobs_per_s: nullableRound(median(of("bare_c8")), 1),
          ratio: round(ratio, 4),
          ratio_of_medians: round(pimsync / bareC1, 4),
          ratio_vs_bare_c1_global: nullableRound(medianPairedRatio(of("pimsync"), of("bare_c1_global")), 4),
          ratio_rounds: roundRatios.map((value) => value.toFixed(3)).join(" / "),
          pimsync_ms_per_job: perJobMs(pimsync),
          bare_c1_ms_per_job: perJobMs(bareC1),
          overhead_ms_per_job: round(1000 / pimsync - 1000 / bareC1, 3),
          // CPU of the whole benchmark process (worker, BullMQ, ioredis) per job: less sensitive
          // than throughput to other processes on the machine.
          pimsync_cpu_ms_per_job: nullableRound(median(cpuPerJob.get("pimsync") ?? []), 3),
          bare_c1_cpu_ms_per_job: nullableRound(median(cpuPerJob.get("bare_c1") ?? []), 3),
          pimsync_rounds: of("pimsync")
            .map((rate) => Math.round(rate))
            .join(" / "),
          bare_c1_rounds: of("bare_c1")
            .map((rate) => Math.round(rate))
            .join(" / "),
        },
      },
      note: QUEUE_OVERHEAD_ONCE_NOTE,
    };
  } finally {
    await Promise.allSettled(bareWorkers.map((bareWorker) => bareWorker.close()));
    await Promise.allSettled(bareQueues.map((queue) => queue.close()));
    await bareConnection.quit().catch(() => bareConnection.disconnect());
    await app?.stop().catch(() => undefined);
    await bench.cleanup();
  }
}

function nullableRound(value: number | null, decimals: number): number | null {
  return value === null ? null : round(value, decimals);
}
