/**
 * Issue 21's benchmark: PIM changes reaching the service through the Event Platform's events.
 * A `pim-sync worker` process (the built CLI) with project 67 subscribed to events, against both
 * simulators at their real budgets on a generated catalogue (option-heavy by default):
 *
 * 1. a full sync through the worker (`sync.run`): the exact baseline, and its requests;
 * 2. 1,000 option changes over 50 attributes (events-plan.ts), made in the PIM simulator's state
 *    (as a PIM user would, not through the API budget) and announced by its signed events, in 10
 *    bursts of 100, one burst every BURST_INTERVAL_MS;
 * 3. once every change reached the service, a second full sync: it must write nothing.
 *
 * Figures: `event_to_service_p50_ms`/`_p95_ms` (the receiver's 200 to the service accepting the
 * first write carrying the change's label, both on this process's clock), `requests_per_event`
 * (PIM and service requests of phase 2 ÷ events, next to a full sync's requests) and
 * `end_state_exact` (every change in the service and nothing left for the full sync to write).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { createJobQueues, type JobQueues } from "../../src/jobs/queues/job-queues.js";
import type { ConfigServiceSimulator } from "../../sim/config-service/config-service-simulator.js";
import { optionEventData, type PimEventEmitter } from "../../sim/pim/pim-event-emitter.js";
import type { PimSimulator } from "../../sim/pim/pim-simulator.js";
import type { CatalogSizeName } from "../catalog/catalog-sizes.js";
import { BENCH_PROJECT } from "../catalog/generate-catalog.js";
import { startSizedSimulators } from "../catalog/start-sized-simulators.js";
import { round } from "../report/round.js";
import { spawnWorkerCommand, type WorkerProcess } from "../scale/worker-process.js";
import { openBenchRedis, type BenchRedis } from "../worker/bench-redis.js";
import { SIM_PIM_CREDENTIALS, SIM_SERVICE_TOKEN } from "../worker/bench-worker-settings.js";
import {
  EVENT_ATTRIBUTES,
  EVENT_BURSTS,
  EVENT_CHANGES,
  pickEventAttributes,
  planEventChanges,
  type EventChange,
  type SelectAttribute,
} from "./events-plan.js";
import { percentile } from "./latency-percentiles.js";

/** Bursts this far apart: a burst's targeted sync (window, reads, writes) mostly ends before the next. */
export const BURST_INTERVAL_MS = 5_000;
/** The receiver's merge window: the setting's default. */
const WINDOW_MS = 1_000;
const SECRET = "bench-events-secret-0123456789";
const SELECT_TYPES: ReadonlySet<string> = new Set(["pim_catalog_simpleselect", "pim_catalog_multiselect"]);
/** A full sync of the option-heavy catalogue takes about 105 s on a quiet machine, several times that on a busy one. */
const FULL_SYNC_TIMEOUT_MS = 20 * 60_000;
const EVENTS_TIMEOUT_MS = 15 * 60_000;
const POLL_MS = 200;

export const EVENTS_TARGETS = { event_to_service_p95_ms: 2_000 } as const;

export interface EventsResult {
  readonly figures: {
    readonly event_to_service_p50_ms: number | null;
    readonly event_to_service_p95_ms: number | null;
    readonly requests_per_event: number;
    readonly end_state_exact: boolean;
  };
  readonly setup: {
    readonly size: CatalogSizeName;
    readonly seed: number;
    readonly latency_ms: number;
    readonly changes: number;
    readonly attributes: number;
    readonly bursts: number;
    readonly burst_interval_ms: number;
    readonly window_ms: number;
    /** Options of the 50 attributes before the changes (an attribute's changes pending in one targeted sync are read alone when they are fewer than its list's pages, else its list is read). */
    readonly options_of_attributes: number;
    readonly largest_attribute_options: number;
  };
  readonly measurements: {
    readonly event_to_service_max_ms: number | null;
    readonly changes_written: number;
    readonly events_answered_200: number;
    readonly event_sync_jobs: number;
    readonly events_phase_s: number;
    readonly events_pim_requests: number;
    readonly events_service_requests: number;
    readonly full_sync_s: number;
    readonly full_sync_pim_requests: number;
    readonly full_sync_service_requests: number;
    readonly verify_sync_s: number;
    readonly verify_sync_pim_requests: number;
    readonly verify_sync_service_requests: number;
    readonly verify_sync_service_writes: number;
    /** Events-phase requests ÷ the verifying full sync's (which reads everything a scheduled sync reads). */
    readonly events_vs_full_sync_requests: number;
    readonly load_average_1m: readonly number[];
  };
}

export interface EventsScenarioOptions {
  readonly size: CatalogSizeName;
  readonly seed: number;
  readonly latencyMs: number;
  readonly redisUrl: string;
  readonly cliPath: string;
  readonly progress: (message: string) => void;
}

const writeBodySchema = z.object({ upsert_options: z.array(z.object({ label: z.record(z.string(), z.string()) })).optional() });
const eventBodySchema = z.object({
  data: z.object({ attribute_option: z.object({ code: z.string(), attribute: z.object({ code: z.string() }) }) }),
});

export async function runEventsScenario(options: EventsScenarioOptions): Promise<EventsResult> {
  options.progress(`events: ${options.size} catalogue, simulators at their real budgets, a worker process…`);
  const { pim, service } = await startSizedSimulators(options.size, options.seed, options.latencyMs);
  const dir = await mkdtemp(join(tmpdir(), "pim-sync-bench-events-"));
  let bench: BenchRedis | null = null;
  let queues: JobQueues | null = null;
  let worker: WorkerProcess | null = null;
  try {
    bench = await openBenchRedis(options.redisUrl);
    queues = createJobQueues({
      connection: bench.redis,
      prefix: bench.prefix,
      projects: [BENCH_PROJECT],
      retention: { keep_completed_days: 1, keep_failed_days: 1 },
    });
    const configPath = join(dir, "config.json");
    await writeFile(
      configPath,
      JSON.stringify(eventsWorkerConfig({ redisUrl: options.redisUrl, prefix: bench.prefix, pimUrl: pim.url, serviceUrl: service.url })),
    );
    worker = spawnWorkerCommand(options.cliPath, configPath, { PIM_EVENTS_SECRET: SECRET });
    const receiver = `${await worker.listening}/v1/pim-events/${BENCH_PROJECT}`;
    await worker.started;
    return await measure({ options, pim, service, queues, receiver });
  } finally {
    await worker?.stop();
    await queues?.close();
    await bench?.cleanup();
    await Promise.all([service.close(), pim.close()]);
    await rm(dir, { recursive: true, force: true });
  }
}

async function measure(args: {
  readonly options: EventsScenarioOptions;
  readonly pim: PimSimulator;
  readonly service: ConfigServiceSimulator;
  readonly queues: JobQueues;
  readonly receiver: string;
}): Promise<EventsResult> {
  const { options, pim, service, queues, receiver } = args;
  const loads: number[] = [];
  const { progress } = options;
  const load = (): void => void loads.push(round(loadAverage(), 2));

  progress(`events: full sync through the worker (the baseline)…`);
  const full = await fullSync(pim, service, queues);
  load();
  progress(`events: full sync ${full.seconds} s, PIM ${full.pimRequests} requests, service ${full.serviceRequests}`);

  const attributes = pickEventAttributes(selectAttributes(pim));
  const changes = planEventChanges(attributes);
  const byOption = new Map(changes.map((change) => [`${change.attribute}/${change.option}`, change]));
  const byLabel = new Map(changes.map((change) => [change.label, change]));
  const deliveredAt = new Map<number, number>();
  const writtenAt = new Map<number, number>();
  let answered200 = 0;

  const stopListening = service.onWrite((_collection, write) => {
    const body = writeBodySchema.safeParse(write.body);
    if (!body.success) return;
    for (const option of body.data.upsert_options ?? []) {
      for (const label of Object.values(option.label)) {
        const change = byLabel.get(label);
        if (change !== undefined && !writtenAt.has(change.index)) writtenAt.set(change.index, write.at);
      }
    }
  });
  pim.events.configure({
    url: receiver,
    secret: SECRET,
    onAnswered: ({ body, status, at }) => {
      if (status !== 200) return;
      answered200 += 1;
      const event = eventBodySchema.safeParse(JSON.parse(body));
      if (!event.success) return;
      const change = byOption.get(`${event.data.data.attribute_option.attribute.code}/${event.data.data.attribute_option.code}`);
      if (change !== undefined && !deliveredAt.has(change.index)) deliveredAt.set(change.index, at);
    },
  });

  pim.clearRequests();
  service.clearRequests();
  const startedAt = performance.now();
  try {
    for (let burst = 0; burst < EVENT_BURSTS; burst += 1) {
      if (burst > 0) await sleep(BURST_INTERVAL_MS);
      for (const change of changes.filter((candidate) => candidate.burst === burst)) applyChange(pim, change);
      progress(`events: burst ${burst + 1}/${EVENT_BURSTS} emitted; ${writtenAt.size}/${changes.length} changes in the service so far`);
      load();
    }
    await pim.events.idle();
    await waitUntil(
      async () => writtenAt.size === changes.length && (await eventSyncsIdle(queues)),
      EVENTS_TIMEOUT_MS,
      () => `${writtenAt.size}/${changes.length} changes written`,
    );
  } finally {
    stopListening();
    pim.events.configure(null);
  }
  const eventsSeconds = (performance.now() - startedAt) / 1000;
  load();
  const eventsPim = pim.requests.length;
  const eventsService = service.requests.length;
  const eventJobs = (await queues.queueFor(BENCH_PROJECT).getJobs(["completed", "failed"], 0, -1)).filter(
    (job) => job.name === "sync.events",
  ).length;
  progress(
    `events: every change in the service after ${round(eventsSeconds, 1)} s; PIM ${eventsPim} requests, service ${eventsService}, ${eventJobs} targeted syncs`,
  );

  progress(`events: full sync again, which must find nothing to write…`);
  const verify = await fullSync(pim, service, queues);
  load();

  const latencies = changes.flatMap((change) => {
    const delivered = deliveredAt.get(change.index);
    const written = writtenAt.get(change.index);
    return delivered === undefined || written === undefined ? [] : [written - delivered];
  });
  const requestsPerEvent = (eventsPim + eventsService) / EVENT_CHANGES;
  return {
    figures: {
      event_to_service_p50_ms: roundOrNull(percentile(latencies, 50)),
      event_to_service_p95_ms: roundOrNull(percentile(latencies, 95)),
      requests_per_event: round(requestsPerEvent, 2),
      end_state_exact: writtenAt.size === EVENT_CHANGES && verify.serviceWrites === 0,
    },
    setup: {
      size: options.size,
      seed: options.seed,
      latency_ms: options.latencyMs,
      changes: EVENT_CHANGES,
      attributes: EVENT_ATTRIBUTES,
      bursts: EVENT_BURSTS,
      burst_interval_ms: BURST_INTERVAL_MS,
      window_ms: WINDOW_MS,
      options_of_attributes: attributes.reduce((sum, attribute) => sum + attribute.options.length, 0),
      largest_attribute_options: Math.max(...attributes.map((attribute) => attribute.options.length)),
    },
    measurements: {
      event_to_service_max_ms: roundOrNull(latencies.length === 0 ? null : Math.max(...latencies)),
      changes_written: writtenAt.size,
      events_answered_200: answered200,
      event_sync_jobs: eventJobs,
      events_phase_s: round(eventsSeconds, 1),
      events_pim_requests: eventsPim,
      events_service_requests: eventsService,
      full_sync_s: full.seconds,
      full_sync_pim_requests: full.pimRequests,
      full_sync_service_requests: full.serviceRequests,
      verify_sync_s: verify.seconds,
      verify_sync_pim_requests: verify.pimRequests,
      verify_sync_service_requests: verify.serviceRequests,
      verify_sync_service_writes: verify.serviceWrites,
      events_vs_full_sync_requests: round((eventsPim + eventsService) / Math.max(1, verify.pimRequests + verify.serviceRequests), 3),
      load_average_1m: loads,
    },
  };
}

/** The worker's config: one project subscribed to events, its HTTP server on a free port. */
function eventsWorkerConfig(args: {
  readonly redisUrl: string;
  readonly prefix: string;
  readonly pimUrl: string;
  readonly serviceUrl: string;
}): Record<string, unknown> {
  return {
    redis: { url: args.redisUrl, prefix: args.prefix },
    // info: the HTTP server's address is logged at info.
    log_level: "info",
    server: { host: "127.0.0.1", port: 0 },
    projects: [
      {
        id: BENCH_PROJECT,
        pim: { url: args.pimUrl, ...SIM_PIM_CREDENTIALS, events: { secret: "${PIM_EVENTS_SECRET}", window_ms: WINDOW_MS } },
        service: { url: args.serviceUrl, token: SIM_SERVICE_TOKEN },
      },
    ],
  };
}

function selectAttributes(pim: PimSimulator): SelectAttribute[] {
  return pim.state.attributes
    .filter((attribute) => SELECT_TYPES.has(attribute.type))
    .map((attribute) => ({
      code: attribute.code,
      options: (pim.state.attribute_options[attribute.code] ?? []).map((option) => option.code),
    }));
}

/**
 * The change, made in the PIM's state (as its UI would), then announced by the simulator's event
 * (or by `emitter`: the large fleet has one subscription per project on a shared PIM).
 */
export function applyChange(
  pim: PimSimulator,
  change: Pick<EventChange, "attribute" | "option" | "label" | "kind">,
  emitter: PimEventEmitter = pim.events,
): void {
  const list = pim.state.attribute_options[change.attribute] ?? [];
  pim.state.attribute_options[change.attribute] = list;
  // Every locale a label is given in, so that each locale's collection carries the change.
  const locales = Object.keys(list[0]?.labels ?? {});
  const labels = Object.fromEntries((locales.length === 0 ? ["en_US"] : locales).map((locale) => [locale, change.label]));
  const existing = list.find((option) => option.code === change.option);
  if (existing) existing.labels = { ...existing.labels, ...labels };
  else list.push({ code: change.option, sort_order: list.length, labels });
  emitter.emit(`attribute-option.${change.kind}`, optionEventData(change.attribute, change.option));
}

async function fullSync(
  pim: PimSimulator,
  service: ConfigServiceSimulator,
  queues: JobQueues,
): Promise<{ seconds: number; pimRequests: number; serviceRequests: number; serviceWrites: number }> {
  pim.clearRequests();
  service.clearRequests();
  const startedAt = performance.now();
  const { jobId } = await queues.enqueue("sync.run", { project: BENCH_PROJECT, trigger: "api" });
  const job = await queues.queueFor(BENCH_PROJECT).getJob(jobId);
  if (!job) throw new Error(`full sync job ${jobId} is not in the queue`);
  await waitUntil(
    async () => {
      const state = await job.getState();
      if (state === "failed")
        throw new Error(`the full sync failed: ${(await queues.queueFor(BENCH_PROJECT).getJob(jobId))?.failedReason ?? "?"}`);
      return state === "completed";
    },
    FULL_SYNC_TIMEOUT_MS,
    () => "the full sync",
  );
  return {
    seconds: round((performance.now() - startedAt) / 1000, 1),
    pimRequests: pim.requests.length,
    serviceRequests: service.requests.length,
    serviceWrites: service.requests.filter((request) => request.method === "PATCH").length,
  };
}

async function eventSyncsIdle(queues: JobQueues): Promise<boolean> {
  const counts = await queues.queueFor(BENCH_PROJECT).getJobCounts("waiting", "active", "delayed", "prioritized");
  return Object.values(counts).every((count) => count === 0);
}

/** Polls `done` until true; fails after `timeoutMs`, saying how far it got. */
async function waitUntil(done: () => Promise<boolean>, timeoutMs: number, state: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`events scenario: gave up after ${timeoutMs / 1000} s (${state()})`);
    await sleep(POLL_MS);
  }
}

function loadAverage(): number {
  return loadavg()[0] ?? 0;
}

function roundOrNull(value: number | null): number | null {
  return value === null ? null : Math.round(value);
}
