/**
 * Issue 31's capacity figures: what a project keeps in Redis, by catalogue size, and what one PIM
 * event leaves. A `pim-sync worker` process (the built CLI, or `--cli`'s) with project 67 on an
 * hourly schedule and subscribed to events, against both simulators, Redis under a prefix of its
 * own (deleted afterwards), every key's bytes read with `MEMORY USAGE … SAMPLES 0`:
 *
 * 1. per size: after the first full sync; after a scheduled sync that changes nothing (what a run
 *    leaves: its job in BullMQ, its final status); after a sync that relabels 1% of the options
 *    (what a change leaves in the history). The 30 days are projected from those (`project30Days`);
 * 2. under the first size: `events` option relabels, each announced by its own signed event and
 *    synced alone before the next (one targeted-sync job per event: the case where each event
 *    costs the most), then the footprint's growth ÷ events.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { createJobQueues, type JobQueues } from "../../src/jobs/queues/job-queues.js";
import { idempotencyWindowSeconds } from "../../src/jobs/queues/job-options.js";
import type { ConfigServiceSimulator } from "../../sim/config-service/config-service-simulator.js";
import { optionEventData } from "../../sim/pim/pim-event-emitter.js";
import type { PimSimulator } from "../../sim/pim/pim-simulator.js";
import type { CatalogSizeName } from "../catalog/catalog-sizes.js";
import { BENCH_PROJECT } from "../catalog/generate-catalog.js";
import { startSizedSimulators } from "../catalog/start-sized-simulators.js";
import { collectGarbage } from "../collect-garbage.js";
import { footprintDelta, measureRedisFootprint, type RedisFootprint } from "../capacity/redis-footprint.js";
import { project30Days, type ThirtyDayProjection } from "../capacity/project-30-days.js";
import { round } from "../report/round.js";
import { spawnWorkerCommand, type WorkerProcess } from "../scale/worker-process.js";
import { openBenchRedis, type BenchRedis } from "../worker/bench-redis.js";
import { SIM_PIM_CREDENTIALS, SIM_SERVICE_TOKEN } from "../worker/bench-worker-settings.js";
import type { ScenarioContext, ScenarioResult } from "./scenario.js";

const SECRET = "bench-capacity-secret-0123456789";
const SELECT_TYPES: ReadonlySet<string> = new Set(["pim_catalog_simpleselect", "pim_catalog_multiselect"]);
const SYNC_TIMEOUT_MS = 20 * 60_000;
const EVENT_TIMEOUT_MS = 60_000;
const POLL_MS = 25;
/** The worker's retention: the defaults (src/settings/settings-schema.ts). */
const RETENTION = { keep_completed_days: 7, keep_failed_days: 30 } as const;
export const DEFAULT_CAPACITY_EVENTS = 200;
/** The built CLI (dist/bench/scenarios/ → dist/src/cli/bin.js): the worker process measured. */
export const BUILT_CLI_PATH = fileURLToPath(new URL("../../src/cli/bin.js", import.meta.url));
const MIN_CHANGED = 200;

export interface CapacitySizeResult {
  readonly options: number;
  readonly after_first_sync: RedisFootprint;
  /** What one scheduled sync with nothing to write leaves. */
  readonly per_noop_sync: RedisFootprint;
  readonly changed_options: number;
  /** What a sync relabelling `changed_options` options leaves. */
  readonly per_changing_sync: RedisFootprint;
  readonly projection_30_days: ThirtyDayProjection;
  readonly load_average_1m: readonly number[];
}

export interface CapacityEventsResult {
  readonly size: CatalogSizeName;
  readonly events: number;
  readonly event_sync_jobs: number;
  readonly growth: RedisFootprint;
  readonly bytes_per_event: number;
  readonly keys_per_event: number;
  /**
   * Bytes per event of the families nothing caps per project: all but BullMQ's jobs (at most
   * 1,000 completed kept), its events stream (trimmed to about 10,000 entries) and the project's
   * log of recent events (1,000).
   */
  readonly uncapped_bytes_per_event: number;
  readonly load_average_1m: readonly number[];
}

export interface CapacityResult {
  readonly figures: {
    readonly redis_bytes_per_project: Readonly<Partial<Record<CatalogSizeName, number>>>;
    readonly redis_bytes_per_project_first_sync: Readonly<Partial<Record<CatalogSizeName, number>>>;
    readonly redis_bytes_per_event: number | null;
    readonly redis_keys_per_event: number | null;
  };
  readonly sizes: Readonly<Partial<Record<CatalogSizeName, CapacitySizeResult>>>;
  readonly events: CapacityEventsResult | null;
  readonly cli: string;
}

export interface CapacityOptions {
  readonly sizes: readonly CatalogSizeName[];
  readonly seed: number;
  readonly latencyMs: number;
  readonly redisUrl: string;
  readonly cliPath: string;
  readonly events: number;
  readonly progress: (message: string) => void;
}

export async function runCapacityScenario(options: CapacityOptions): Promise<CapacityResult> {
  const sizes: Partial<Record<CatalogSizeName, CapacitySizeResult>> = {};
  let events: CapacityEventsResult | null = null;
  for (const [index, size] of options.sizes.entries()) {
    const measured = await measureSize(size, options, index === 0 ? options.events : 0);
    sizes[size] = measured.size;
    events ??= measured.events;
    collectGarbage();
  }
  const perSize = (pick: (result: CapacitySizeResult) => number): Partial<Record<CatalogSizeName, number>> =>
    Object.fromEntries(Object.entries(sizes).map(([name, result]) => [name, pick(result)]));
  return {
    figures: {
      redis_bytes_per_project: perSize((result) => result.projection_30_days.bytes),
      redis_bytes_per_project_first_sync: perSize((result) => result.after_first_sync.bytes),
      redis_bytes_per_event: events?.bytes_per_event ?? null,
      redis_keys_per_event: events?.keys_per_event ?? null,
    },
    sizes,
    events,
    cli: options.cliPath,
  };
}

/** In the main run: every size's bytes per project; the events under the run's first size only. */
export async function runCapacityOfSizeScenario(context: ScenarioContext): Promise<ScenarioResult> {
  const measured = await measureCapacityOn({
    size: context.size,
    pim: context.pim,
    service: context.service,
    redisUrl: context.worker.redisUrl,
    cliPath: BUILT_CLI_PATH,
    events: context.worker.measureOncePerRun ? DEFAULT_CAPACITY_EVENTS : 0,
    progress: context.progress,
  });
  const projection = measured.size.projection_30_days;
  return {
    figures: {
      redis_bytes_per_project: projection.bytes,
      redis_bytes_per_event: measured.events?.bytes_per_event ?? null,
      redis_keys_per_event: measured.events?.keys_per_event ?? null,
    },
    measurements: {
      capacity: {
        first_sync_bytes: measured.size.after_first_sync.bytes,
        first_sync_keys: measured.size.after_first_sync.keys,
        state_bytes: measured.size.after_first_sync.families.state.bytes,
        history_bytes_first_sync: measured.size.after_first_sync.families.history.bytes,
        per_noop_sync_bytes: measured.size.per_noop_sync.bytes,
        per_changing_sync_bytes: measured.size.per_changing_sync.bytes,
        changed_options: measured.size.changed_options,
        projected_30_days_bytes: projection.bytes,
        projected_queue_jobs_bytes: projection.queue_jobs_bytes,
        projected_job_status_bytes: projection.job_status_bytes,
        projected_history_bytes: projection.history_bytes,
        uncapped_bytes_per_event: measured.events?.uncapped_bytes_per_event ?? null,
      },
    },
    note: measured.events === null ? "redis_bytes_per_event: measured under the run's first size only" : null,
  };
}

async function measureSize(
  size: CatalogSizeName,
  options: CapacityOptions,
  eventCount: number,
): Promise<{ size: CapacitySizeResult; events: CapacityEventsResult | null }> {
  options.progress(`capacity: ${size} catalogue, a worker process…`);
  const { pim, service } = await startSizedSimulators(size, options.seed, options.latencyMs);
  try {
    return await measureCapacityOn({
      size,
      pim,
      service,
      redisUrl: options.redisUrl,
      cliPath: options.cliPath,
      events: eventCount,
      progress: options.progress,
    });
  } finally {
    await Promise.all([service.close(), pim.close()]);
  }
}

/**
 * The measurement on simulators already running the size's catalogue (the main run's); it
 * relabels options in the PIM simulator's state, so it runs after every scenario that reads it.
 */
export async function measureCapacityOn(args: {
  readonly size: CatalogSizeName;
  readonly pim: PimSimulator;
  readonly service: ConfigServiceSimulator;
  readonly redisUrl: string;
  readonly cliPath: string;
  readonly events: number;
  readonly progress: (message: string) => void;
}): Promise<{ size: CapacitySizeResult; events: CapacityEventsResult | null }> {
  const { size, pim, service, progress } = args;
  const eventCount = args.events;
  const options = { redisUrl: args.redisUrl, cliPath: args.cliPath };
  const dir = await mkdtemp(join(tmpdir(), "pim-sync-bench-capacity-"));
  let bench: BenchRedis | null = null;
  let queues: JobQueues | null = null;
  let worker: WorkerProcess | null = null;
  try {
    bench = await openBenchRedis(options.redisUrl);
    queues = createJobQueues({ connection: bench.redis, prefix: bench.prefix, projects: [BENCH_PROJECT], retention: RETENTION });
    const configPath = join(dir, "config.json");
    await writeFile(configPath, JSON.stringify(workerConfig(options.redisUrl, bench.prefix, pim.url, service.url)));
    worker = spawnWorkerCommand(options.cliPath, configPath, { PIM_EVENTS_SECRET: SECRET });
    const receiver = `${await worker.listening}/v1/pim-events/${BENCH_PROJECT}`;
    await worker.started;
    const loads: number[] = [];
    const load = (): void => void loads.push(round(loadavg()[0] ?? 0, 2));
    const footprint = (): Promise<RedisFootprint> => measureRedisFootprint((bench as BenchRedis).redis, (bench as BenchRedis).prefix);

    load();
    await syncOnce(queues);
    const first = await footprint();
    progress(`capacity: ${size} first sync: ${first.keys} keys, ${round(first.bytes / 1_048_576, 2)} MB`);
    await syncOnce(queues);
    const afterNoop = await footprint();
    const attributes = selectAttributes(pim);
    const options_ = attributes.reduce((sum, attribute) => sum + attribute.options.length, 0);
    // At least 200: the history is one stream, whose memory grows by listpack nodes of a few KB,
    // so a handful of entries may not show at all.
    const changed = Math.min(options_, Math.max(MIN_CHANGED, Math.round(options_ / 100)));
    relabel(pim, attributes, changed, "day-1");
    await syncOnce(queues);
    const afterChange = await footprint();
    load();
    const perNoop = footprintDelta(first, afterNoop);
    const perChanging = footprintDelta(afterNoop, afterChange);
    const projection = project30Days({
      afterFirstSync: first,
      perNoopSync: perNoop,
      perChangingSync: perChanging,
      changedOptions: changed,
      options: options_,
      retention: { completedDays: RETENTION.keep_completed_days, statusDays: idempotencyWindowSeconds(RETENTION) / 86_400 },
    });
    progress(`capacity: ${size} projected over 30 days: ${round(projection.bytes / 1_048_576, 2)} MB`);
    const sizeResult: CapacitySizeResult = {
      options: options_,
      after_first_sync: first,
      per_noop_sync: perNoop,
      changed_options: changed,
      per_changing_sync: perChanging,
      projection_30_days: projection,
      load_average_1m: loads,
    };
    if (eventCount === 0) return { size: sizeResult, events: null };

    progress(`capacity: ${eventCount} events, each synced alone…`);
    pim.events.configure({ url: receiver, secret: SECRET });
    const before = await footprint();
    const eventLoads: number[] = [round(loadavg()[0] ?? 0, 2)];
    const jobsBefore = await eventJobCount(queues);
    for (let index = 0; index < eventCount; index += 1) {
      const change = relabel(pim, attributes, 1, `event-${index}`, index)[0];
      if (change === undefined) throw new Error("no select attribute to change");
      pim.events.emit("attribute-option.updated", optionEventData(change.attribute, change.option));
      await pim.events.idle();
      await waitUntil(
        async () => (await eventJobCount(queues as JobQueues)) >= jobsBefore + index + 1 && (await idle(queues as JobQueues)),
        EVENT_TIMEOUT_MS,
        async () =>
          `event ${index}: deliveries ${JSON.stringify(pim.events.stats())}, jobs ${JSON.stringify(
            await (queues as JobQueues).queueFor(BENCH_PROJECT).getJobCounts(),
          )}, targeted syncs completed ${(await eventJobCount(queues as JobQueues)) - jobsBefore}`,
      );
      if (index % 50 === 49) {
        eventLoads.push(round(loadavg()[0] ?? 0, 2));
        progress(`capacity: ${index + 1}/${eventCount} events synced`);
      }
    }
    pim.events.configure(null);
    const growth = footprintDelta(before, await footprint());
    const capped =
      growth.families["queue:jobs"].bytes + growth.families["queue:events-stream"].bytes + growth.families["pim-events:other"].bytes;
    return {
      size: sizeResult,
      events: {
        size,
        events: eventCount,
        event_sync_jobs: (await eventJobCount(queues)) - jobsBefore,
        growth,
        bytes_per_event: round(growth.bytes / eventCount, 0),
        keys_per_event: round(growth.keys / eventCount, 2),
        uncapped_bytes_per_event: round((growth.bytes - capped) / eventCount, 0),
        load_average_1m: eventLoads,
      },
    };
  } finally {
    await worker?.stop();
    await queues?.close();
    await bench?.cleanup();
    await rm(dir, { recursive: true, force: true });
  }
}

function workerConfig(redisUrl: string, prefix: string, pimUrl: string, serviceUrl: string): Record<string, unknown> {
  return {
    redis: { url: redisUrl, prefix },
    log_level: "info",
    server: { host: "127.0.0.1", port: 0 },
    worker: RETENTION,
    projects: [
      {
        id: BENCH_PROJECT,
        pim: { url: pimUrl, ...SIM_PIM_CREDENTIALS, events: { secret: "${PIM_EVENTS_SECRET}" } },
        service: { url: serviceUrl, token: SIM_SERVICE_TOKEN },
        // Hourly: the schedule's keys are counted; its first run is far off for a run of minutes.
        schedule: { cron: "0 * * * *" },
      },
    ],
  };
}

interface SelectAttribute {
  readonly code: string;
  readonly options: readonly string[];
}

function selectAttributes(pim: PimSimulator): SelectAttribute[] {
  return pim.state.attributes
    .filter((attribute) => SELECT_TYPES.has(attribute.type))
    .map((attribute) => ({
      code: attribute.code,
      options: (pim.state.attribute_options[attribute.code] ?? []).map((option) => option.code),
    }))
    .filter((attribute) => attribute.options.length > 0);
}

/** Relabels `count` options, spread over the attributes (starting at the `offset`-th), in every locale they have. */
function relabel(
  pim: PimSimulator,
  attributes: readonly SelectAttribute[],
  count: number,
  tag: string,
  offset = 0,
): { attribute: string; option: string }[] {
  const changed: { attribute: string; option: string }[] = [];
  for (let index = 0; index < count && attributes.length > 0; index += 1) {
    const attribute = attributes[(offset + index) % attributes.length];
    if (attribute === undefined) break;
    const code = attribute.options[Math.floor((offset + index) / attributes.length) % attribute.options.length];
    const option = pim.state.attribute_options[attribute.code]?.find((candidate) => candidate.code === code);
    if (option === undefined) continue;
    option.labels = Object.fromEntries(
      (Object.keys(option.labels).length === 0 ? ["en_US"] : Object.keys(option.labels)).map((locale) => [locale, `${code} ${tag}`]),
    );
    changed.push({ attribute: attribute.code, option: option.code });
  }
  return changed;
}

async function syncOnce(queues: JobQueues): Promise<void> {
  const { jobId } = await queues.enqueue("sync.run", { project: BENCH_PROJECT, trigger: "api" });
  const job = await queues.queueFor(BENCH_PROJECT).getJob(jobId);
  if (!job) throw new Error(`sync job ${jobId} is not in the queue`);
  await waitUntil(async () => {
    const state = await job.getState();
    if (state === "failed")
      throw new Error(`the sync failed: ${(await queues.queueFor(BENCH_PROJECT).getJob(jobId))?.failedReason ?? "?"}`);
    return state === "completed";
  }, SYNC_TIMEOUT_MS);
}

async function eventJobCount(queues: JobQueues): Promise<number> {
  const jobs = await queues.queueFor(BENCH_PROJECT).getJobs(["completed"], 0, -1);
  return jobs.filter((job) => job.name === "sync.events").length;
}

/** Nothing waiting or running: "delayed" holds the schedule's next run, always there. */
async function idle(queues: JobQueues): Promise<boolean> {
  const counts = await queues.queueFor(BENCH_PROJECT).getJobCounts("waiting", "active", "prioritized");
  return Object.values(counts).every((count) => count === 0);
}

async function waitUntil(done: () => Promise<boolean>, timeoutMs: number, state?: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline)
      throw new Error(`capacity scenario: gave up after ${timeoutMs / 1000} s${state ? ` (${await state()})` : ""}`);
    await sleep(POLL_MS);
  }
}
