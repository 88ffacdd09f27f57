/**
 * Issue 31 §2: a fleet at scale stays within budget and fair. P = 200 projects of small
 * catalogues (the sample catalogue's first 6 collections of project 67, copied per project) on
 * W = 8 `pim-sync worker` processes (the built CLI) of concurrency 2, behind several service
 * accounts and PIM connections, some shared by many projects, some held alone
 * (bench/fleet/large-fleet-shape.ts); each account and each connection is its own simulator at
 * the real budgets, so every identity's peak is read from its own request log.
 *
 * - The scheduled projects share one daily cron set a little ahead (T0); the worker's
 *   `schedule_jitter_ms` spreads their starts over JITTER_MS (the product's schedules, not the
 *   benchmark's enqueues).
 * - While they run, small add-options jobs (one option) of projects without a schedule on the
 *   busiest account, one after the other, and a stream of PIM events (one created option every
 *   EVENT_INTERVAL_MS, round robin over the event projects, each posted to its project's
 *   receiver on one of the worker processes).
 * - The benchmark's own redis-server (testkit/own-redis-server.ts), so that its memory and
 *   CPU are the fleet's alone.
 *
 * Figures: `large_fleet_429s` (target 0); `large_fleet_peak_service_rps` (busiest second of the
 * busiest account) and `large_fleet_peak_pim_in_flight` (of the busiest connection), with
 * `large_fleet_budget_ratio` = the highest peak ÷ its own identity's budget (service 10/s, PIM
 * 4 in flight and 100/s; target <= 1); `large_fleet_ratio` = T0 → the last scheduled sync done,
 * ÷ the floor: the busiest identity's requests at its budget, no request served before its
 * project's schedule released it (bench/floor/released-floor.ts; target <= 1.15);
 * `large_fleet_small_job_wait_p95_ms`: a small job's latency during the fleet − its median
 * alone, p95 (target <= 2,000); `large_fleet_event_p95_ms`: the receiver's 200 to the service
 * accepting the first write of the project carrying the change, p95 (target <= 2,000).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { createJobQueues, type JobQueues } from "../../src/jobs/queues/job-queues.js";
import { scheduleOffsetMs } from "../../src/jobs/queues/schedule-offset.js";
import { loadSimCatalog, type SimCatalog } from "../../sim/catalog/catalog-file.js";
import { startConfigServiceSimulator, type ConfigServiceSimulator } from "../../sim/config-service/config-service-simulator.js";
import { createPimEventEmitter } from "../../sim/pim/pim-event-emitter.js";
import { startPimSimulator, type PimSimulator } from "../../sim/pim/pim-simulator.js";
import type { RecordedRequest } from "../../sim/shared/request-log.js";
import { defaultCatalogPath } from "../../sim/start-simulators.js";
import { computeFloor, REAL_BUDGETS } from "../floor/compute-floor.js";
import { releasedFloorSeconds, type ReleasedWork } from "../floor/released-floor.js";
import { writeFleetWorkerConfig } from "../fleet/fleet-worker-config.js";
import {
  LARGE_FLEET_CONCURRENCY,
  LARGE_FLEET_PROCESSES,
  LARGE_FLEET_PROJECTS,
  planLargeFleet,
  type LargeFleetProject,
} from "../fleet/large-fleet-shape.js";
import { peakInWindow, peakOverlap } from "../fleet/upstream-peaks.js";
import { waitForJob, type FinishedJob } from "../fleet/wait-for-job.js";
import { startOwnRedisServer } from "../../testkit/own-redis-server.js";
import { readRedisUsage } from "../redis/redis-info.js";
import { round } from "../report/round.js";
import { redisSocketsOf } from "../fleet/redis-sockets-of.js";
import { scaleCatalog } from "../scale/scale-catalog.js";
import { spawnWorkerCommand, type WorkerProcess } from "../scale/worker-process.js";
import { openBenchRedis, type BenchRedis } from "../worker/bench-redis.js";
import { applyChange } from "./events-scenario.js";
import { percentile } from "./latency-percentiles.js";

/** Collections per project: a small catalogue, 6 writes and one list page at the service. */
const COLLECTIONS = 6;
const JITTER_MS = 15_000;
/** The schedules' time is this far after their delayed jobs are added (200 adds). */
const SCHEDULE_LEAD_MS = 2_000;
/** The schedule the offsets are computed for: a daily cron (its gap does not shorten the jitter window). */
const DAILY_CRON = "0 0 3 * * *";
const ALONE = 5;
const SMALL_GAP_MS = 250;
const EVENT_INTERVAL_MS = 500;
const SMALL_ATTRIBUTE = "color";
const EVENT_ATTRIBUTE = "color";
const SECRET_VARIABLE = "PIM_EVENTS_SECRET";
const SECRET = "bench-large-fleet-secret-0123456789";
const JOB_TIMEOUT_MS = 120_000;
const FLEET_TIMEOUT_MS = 600_000;
const POLL_MS = 500;
const SERVICE_WINDOW_MS = 1000;
/** The idle window after the start, before any job: each process' CPU over it is its idle cost. */
const IDLE_MS = 10_000;

export const LARGE_FLEET_TARGETS = {
  large_fleet_429s: { target: "= 0", met: (value: number) => value === 0 },
  large_fleet_budget_ratio: { target: "<= 1", met: (value: number) => value <= 1 },
  large_fleet_ratio: { target: "<= 1.15", met: (value: number) => value <= 1.15 },
  large_fleet_small_job_wait_p95_ms: { target: "<= 2000", met: (value: number) => value <= 2000 },
  large_fleet_event_p95_ms: { target: "<= 2000", met: (value: number) => value <= 2000 },
  large_fleet_redis_clients_per_process: { target: "<= 16", met: (value: number) => value <= 16 },
  large_fleet_start_cpu_s: { target: "<= 1", met: (value: number) => value <= 1 },
  large_fleet_idle_cpu_share: { target: "<= 0.02", met: (value: number) => value <= 0.02 },
} as const;

export interface LargeFleetOptions {
  readonly latencyMs: number;
  readonly projects?: number;
  readonly seed: number;
  readonly cliPath: string;
  readonly progress: (message: string) => void;
}

export interface LargeFleetResult {
  readonly figures: {
    readonly large_fleet_projects: number;
    readonly large_fleet_429s: number;
    readonly large_fleet_peak_service_rps: number;
    readonly large_fleet_peak_pim_in_flight: number;
    readonly large_fleet_budget_ratio: number;
    readonly large_fleet_ratio: number;
    readonly large_fleet_small_job_wait_p95_ms: number | null;
    readonly large_fleet_event_p95_ms: number | null;
    /** The most Redis connections any worker process holds, once started (from /proc). */
    readonly large_fleet_redis_clients_per_process: number | null;
    /** The highest CPU seconds any process spent to start. */
    readonly large_fleet_start_cpu_s: number | null;
    /** The highest share of a core any process used idle (10 s after the start, no job). */
    readonly large_fleet_idle_cpu_share: number | null;
    /** The longest any scheduled sync waited from its due time to its start. */
    readonly large_fleet_scheduled_wait_max_ms: number | null;
  };
  readonly verdicts: Readonly<Record<keyof typeof LARGE_FLEET_TARGETS, { target: string; met: boolean | null }>>;
  readonly measurements: Readonly<Record<string, Readonly<Record<string, number | string | null>>>>;
}

interface Upstreams {
  readonly pims: readonly PimSimulator[];
  readonly services: readonly ConfigServiceSimulator[];
  /** Per service simulator: collection id → project. */
  readonly collectionProject: readonly ReadonlyMap<number, number>[];
}

async function startUpstreams(sample: SimCatalog, plan: ReturnType<typeof planLargeFleet>, latencyMs: number): Promise<Upstreams> {
  const pims: PimSimulator[] = [];
  const services: ConfigServiceSimulator[] = [];
  const collectionProject: Map<number, number>[] = [];
  try {
    for (let connection = 0; connection < plan.pimConnections; connection += 1)
      pims.push(await startPimSimulator({ catalog: sample.pim, latencyMs }));
    for (let account = 0; account < plan.serviceAccounts; account += 1) {
      const projects = plan.projects.filter((project) => project.service === account).map((project) => project.id);
      const catalog = scaleCatalog(sample, projects, COLLECTIONS);
      collectionProject.push(new Map(catalog.service.collections.map((collection) => [collection.id, collection.project])));
      services.push(
        await startConfigServiceSimulator({ catalog: catalog.service, pim: pims[plan.serviceLinkedPim[account] ?? 0], latencyMs }),
      );
    }
  } catch (error) {
    await Promise.allSettled([...services, ...pims].map((simulator) => simulator.close()));
    throw error;
  }
  return { pims, services, collectionProject };
}

export async function runLargeFleetScenario(options: LargeFleetOptions): Promise<LargeFleetResult> {
  const plan = planLargeFleet(options.projects ?? LARGE_FLEET_PROJECTS, options.seed);
  const upstreams = await startUpstreams(await loadSimCatalog(defaultCatalogPath()), plan, options.latencyMs);
  const dir = await mkdtemp(join(tmpdir(), "pim-sync-bench-large-fleet-"));
  const workers: WorkerProcess[] = [];
  let queues: JobQueues | null = null;
  let bench: BenchRedis | null = null;
  const redisServer = await startOwnRedisServer().catch(async (error: unknown) => {
    await Promise.allSettled([...upstreams.services, ...upstreams.pims].map((simulator) => simulator.close()));
    throw error;
  });
  try {
    bench = await openBenchRedis(redisServer.url);
    const ids = plan.projects.map((project) => project.id);
    queues = createJobQueues({
      connection: bench.redis,
      prefix: bench.prefix,
      projects: ids,
      retention: { keep_completed_days: 1, keep_failed_days: 1 },
    });
    const byId = new Map(plan.projects.map((project) => [project.id, project]));
    const configPath = await writeFleetWorkerConfig(dir, {
      redisUrl: redisServer.url,
      prefix: bench.prefix,
      projects: ids,
      concurrency: LARGE_FLEET_CONCURRENCY,
      server: true,
      allowedAttributes: Object.fromEntries(plan.projects.filter((p) => p.role === "small-job").map((p) => [p.id, [SMALL_ATTRIBUTE]])),
      endpointsOf: (id) => {
        const project = byId.get(id);
        if (project === undefined) throw new Error(`project ${id} is not in the plan`);
        return {
          pimUrl: upstreams.pims[project.pim]?.url ?? "",
          serviceUrl: upstreams.services[project.service]?.url ?? "",
          ...(project.role === "events" ? { eventsSecretVariable: SECRET_VARIABLE } : {}),
        };
      },
    });
    options.progress(
      `large fleet: ${ids.length} projects on ${plan.serviceAccounts} service accounts and ${plan.pimConnections} PIM connections, ` +
        `${LARGE_FLEET_PROCESSES} worker processes of concurrency ${LARGE_FLEET_CONCURRENCY}, its own Redis at ${redisServer.url}…`,
    );
    const startedAt = Date.now();
    for (let index = 0; index < LARGE_FLEET_PROCESSES; index += 1)
      workers.push(spawnWorkerCommand(options.cliPath, configPath, { [SECRET_VARIABLE]: SECRET }));
    await Promise.all(workers.map((worker) => worker.started));
    const receivers = await Promise.all(workers.map((worker) => worker.listening));
    const startCpu = await Promise.all(workers.map((worker) => worker.cpuSeconds()));
    options.progress(
      `large fleet: ${workers.length} processes started in ${round((Date.now() - startedAt) / 1000, 1)} s, ` +
        `CPU s each ${startCpu.map((seconds) => (seconds === null ? "-" : round(seconds, 2))).join(" / ")}`,
    );
    const redisPort = Number(new URL(redisServer.url).port);
    const clients = await Promise.all(workers.map((worker) => redisSocketsOf(worker.pid, redisPort)));
    const idleBefore = await Promise.all(workers.map((worker) => worker.cpuSeconds()));
    const idleFrom = Date.now();
    await sleep(IDLE_MS);
    const idleAfter = await Promise.all(workers.map((worker) => worker.cpuSeconds()));
    const idleSeconds = (Date.now() - idleFrom) / 1000;
    const idleShares = idleAfter.map((after, index) => {
      const before = idleBefore[index];
      return after === null || before === null || before === undefined ? null : (after - before) / idleSeconds;
    });
    const maxOf = (values: readonly (number | null)[]): number | null => {
      const known = values.filter((value): value is number => value !== null);
      return known.length === 0 ? null : Math.max(...known);
    };
    options.progress(
      `large fleet: Redis connections per process ${clients.map((count) => count ?? "-").join(" / ")}; ` +
        `idle CPU share ${idleShares.map((share) => (share === null ? "-" : round(share, 4))).join(" / ")}`,
    );
    const startup = {
      seconds: round((Date.now() - startedAt) / 1000, 1),
      cpuS: startCpu.map((seconds) => (seconds === null ? "-" : String(round(seconds, 2)))).join(" / "),
      maxCpuS: maxOf(startCpu),
      maxClients: maxOf(clients),
      clients: clients.map((count) => count ?? "-").join(" / "),
      maxIdleShare: maxOf(idleShares),
      idleShares: idleShares.map((share) => (share === null ? "-" : String(round(share, 4)))).join(" / "),
    };
    return await measure({ options, plan, upstreams, queues, workers, receivers, redis: bench.redis, startup });
  } finally {
    await Promise.allSettled(workers.map((worker) => worker.stop()));
    await queues?.close().catch(() => undefined);
    await bench?.cleanup().catch(() => undefined);
    await redisServer.close();
    await Promise.allSettled([...upstreams.services, ...upstreams.pims].map((simulator) => simulator.close()));
    await rm(dir, { recursive: true, force: true });
  }
}

const eventBodySchema = z.object({ data: z.object({ attribute_option: z.object({ code: z.string() }) }) });
const writeBodySchema = z.object({ upsert_options: z.array(z.object({ label: z.record(z.string(), z.string()) })).optional() });

async function measure(args: {
  readonly options: LargeFleetOptions;
  readonly plan: ReturnType<typeof planLargeFleet>;
  readonly upstreams: Upstreams;
  readonly queues: JobQueues;
  readonly workers: readonly WorkerProcess[];
  readonly receivers: readonly string[];
  readonly redis: Parameters<typeof readRedisUsage>[0];
  /** The processes' start: wall seconds for all, CPU seconds each. */
  readonly startup: {
    readonly seconds: number;
    readonly cpuS: string;
    readonly maxCpuS: number | null;
    readonly maxClients: number | null;
    readonly clients: string;
    readonly maxIdleShare: number | null;
    readonly idleShares: string;
  };
}): Promise<LargeFleetResult> {
  const { options, plan, upstreams, queues, workers } = args;
  const { progress } = options;
  const scheduled = plan.projects.filter((project) => project.role === "scheduled");
  const smallProjects = plan.projects.filter((project) => project.role === "small-job");
  const eventProjects = plan.projects.filter((project) => project.role === "events");

  // The event projects' first syncs (the targeted syncs start from their state), before the fleet.
  await Promise.all(
    eventProjects.map(async (project) => {
      const { jobId } = await queues.enqueue("sync.run", { project: project.id, trigger: "api" });
      await waitForJob(queues.queueFor(project.id), jobId, JOB_TIMEOUT_MS);
    }),
  );

  let added = 0;
  const smallJob = async (): Promise<FinishedJob> => {
    const project = smallProjects[added % smallProjects.length] as LargeFleetProject;
    added += 1;
    const locale = "en_US";
    const { jobId } = await queues.enqueue("options.add", {
      project: project.id,
      attribute: SMALL_ATTRIBUTE,
      options: [{ name: `bench_lf_${added}`, label: { [locale]: `Bench large fleet ${added}` } }],
      requested_by: "bench",
    });
    return waitForJob(queues.queueFor(project.id), jobId, JOB_TIMEOUT_MS);
  };
  const latencyOf = (job: FinishedJob): number => job.finishedOn - job.timestamp;
  // The first of each project reads its structure and collection list (then cached): unmeasured.
  for (let index = 0; index < smallProjects.length; index += 1) await smallJob();
  const alone: number[] = [];
  for (let index = 0; index < ALONE; index += 1) {
    alone.push(latencyOf(await smallJob()));
    await sleep(SMALL_GAP_MS);
  }
  const aloneMedian = percentile(alone, 50) ?? 0;
  progress(`large fleet: small job alone ${alone.map((ms) => Math.round(ms)).join(" / ")} ms`);

  // The schedules' runs: the delayed jobs a job scheduler adds, at the product's spread offsets
  // from one cron time T0 (src/jobs/queues/schedule-offset.ts). Added here, once every process has
  // started, rather than by a cron in the config: the cron's time would have to be set before an
  // 8-process start whose length depends on the machine's load (70 s at a load of 12).
  for (const simulator of [...upstreams.pims, ...upstreams.services]) simulator.clearRequests();
  const t0 = Date.now() + SCHEDULE_LEAD_MS;
  const releaseMs = new Map(scheduled.map((project) => [project.id, scheduleOffsetMs(project.id, { pattern: DAILY_CRON }, JITTER_MS)]));
  await Promise.all(
    scheduled.map((project) =>
      queues.enqueue(
        "sync.run",
        { project: project.id, trigger: "schedule" },
        { delayMs: Math.max(0, t0 + (releaseMs.get(project.id) ?? 0) - Date.now()) },
      ),
    ),
  );
  progress(`large fleet: ${scheduled.length} scheduled syncs spread over ${JITTER_MS / 1000} s, small jobs and PIM events while they run…`);
  await sleep(Math.max(0, t0 - Date.now()));
  const cpuBefore = await Promise.all(workers.map((worker) => worker.cpuSeconds()));
  // The benchmark process serves every simulator: its CPU is the upstreams' share of the machine.
  const benchCpuBefore = process.cpuUsage();
  const redisBefore = await readRedisUsage(args.redis);
  const loads: number[] = [round(loadavg()[0] ?? 0, 2)];

  // Events: one subscription per event project, posted to one of the processes' receivers.
  const deliveredAt = new Map<string, number>();
  const writtenAt = new Map<string, number>();
  const labelOf = (code: string): string => `bench large fleet event ${code}`;
  const stops = eventProjects.map((project) => {
    const service = upstreams.services[project.service] as ConfigServiceSimulator;
    return service.onWrite((collection, write) => {
      if (collection.project !== project.id) return;
      const body = writeBodySchema.safeParse(write.body);
      if (!body.success) return;
      for (const option of body.data.upsert_options ?? [])
        for (const label of Object.values(option.label))
          if (label.startsWith(labelOf("")) && !writtenAt.has(label)) writtenAt.set(label, write.at);
    });
  });
  const emitters = eventProjects.map((project, index) => {
    const emitter = createPimEventEmitter();
    emitter.configure({
      url: `${args.receivers[index % args.receivers.length]}/v1/pim-events/${project.id}`,
      secret: SECRET,
      onAnswered: ({ body, status, at }) => {
        const event = eventBodySchema.safeParse(JSON.parse(body));
        if (status === 200 && event.success) deliveredAt.set(labelOf(event.data.data.attribute_option.code), at);
      },
    });
    return emitter;
  });

  let fleetOver = false;
  const during: FinishedJob[] = [];
  const smallLoop = (async () => {
    while (!fleetOver) {
      during.push(await smallJob());
      await sleep(SMALL_GAP_MS);
    }
  })();
  let emitted = 0;
  const eventLoop = (async () => {
    while (!fleetOver) {
      const index = emitted % eventProjects.length;
      const project = eventProjects[index] as LargeFleetProject;
      const code = `lf_event_${emitted}`;
      emitted += 1;
      applyChange(
        upstreams.pims[project.pim] as PimSimulator,
        { attribute: EVENT_ATTRIBUTE, option: code, label: labelOf(code), kind: "created" },
        emitters[index],
      );
      await sleep(EVENT_INTERVAL_MS);
    }
  })();

  let redisPeakClients = redisBefore.connectedClients;
  const deadline = t0 + FLEET_TIMEOUT_MS;
  for (;;) {
    await sleep(POLL_MS);
    const counts = await Promise.all(scheduled.map((project) => queues.queueFor(project.id).getJobCounts("completed", "failed")));
    const failed = counts.reduce((sum, count) => sum + (count.failed ?? 0), 0);
    redisPeakClients = Math.max(redisPeakClients, (await readRedisUsage(args.redis)).connectedClients);
    loads.push(round(loadavg()[0] ?? 0, 2));
    if (failed > 0) throw new Error(`large fleet: ${failed} scheduled sync(s) failed`);
    if (counts.every((count) => (count.completed ?? 0) >= 1)) break;
    if (Date.now() > deadline) throw new Error(`large fleet: the scheduled syncs did not finish within ${FLEET_TIMEOUT_MS} ms`);
  }
  const redisAfter = await readRedisUsage(args.redis);
  const cpuAfter = await Promise.all(workers.map((worker) => worker.cpuSeconds()));
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const scheduledRuns = await Promise.all(
    scheduled.map(async (project) => {
      const jobs = (await queues.queueFor(project.id).getJobs(["completed"], 0, -1)).filter((job) => job.name === "sync.run");
      // From the schedule's time for it (its creation plus its delay) to its start.
      const waits = jobs.map((job) => (job.processedOn ?? 0) - (job.timestamp + (job.delay ?? 0)));
      return { finishedOn: Math.max(...jobs.map((job) => job.finishedOn ?? 0)), wait: Math.max(...waits) };
    }),
  );
  const finishedOn = scheduledRuns.map((run) => run.finishedOn);
  const scheduledWaitMax = Math.max(...scheduledRuns.map((run) => run.wait));
  const fleetEnd = Math.max(...finishedOn);
  fleetOver = true;
  await Promise.all([smallLoop, eventLoop]);
  // The events delivered during the fleet reach the service (or not) now; wait for them, bounded.
  const duringEvents = [...deliveredAt.entries()].filter(([, at]) => at <= fleetEnd).map(([label]) => label);
  await waitUntil(
    async () => duringEvents.every((label) => writtenAt.has(label)),
    60_000,
    () => "",
  ).catch(() => undefined);
  for (const stop of stops) stop();
  for (const emitter of emitters) emitter.configure(null);

  const wallMs = fleetEnd - t0;
  const requestsOf = (simulator: { requests: readonly RecordedRequest[] }): RecordedRequest[] =>
    simulator.requests.filter((request) => request.startedAt <= fleetEnd);
  const serviceLogs = upstreams.services.map(requestsOf);
  const pimLogs = upstreams.pims.map(requestsOf);

  // Floors: each service account's requests, released with its projects' schedules; each PIM connection's, at once.
  const releaseS = new Map([...releaseMs].map(([project, ms]) => [project, ms / 1000]));
  const serviceFloors = serviceLogs.map((log, account) =>
    releasedFloorSeconds(
      serviceWork(log, upstreams.collectionProject[account] ?? new Map(), releaseS),
      REAL_BUDGETS.serviceRequestsPerSecond,
    ),
  );
  const pimFloors = pimLogs.map((log) => computeFloor({ pim: log.length, service: 0 }, options.latencyMs).seconds);
  const floorS = Math.max(...serviceFloors, ...pimFloors);
  const plainServiceFloor = Math.max(...serviceLogs.map((log) => log.length / REAL_BUDGETS.serviceRequestsPerSecond));

  const servicePeaks = serviceLogs.map((log) =>
    peakInWindow(
      log.map((request) => request.startedAt),
      SERVICE_WINDOW_MS,
    ),
  );
  const pimInFlight = pimLogs.map((log) => peakOverlap(log.filter((request) => request.authScheme === "Bearer")));
  const pimRate = pimLogs.map((log) =>
    peakInWindow(
      log.map((request) => request.startedAt),
      SERVICE_WINDOW_MS,
    ),
  );
  const budgetRatio = Math.max(
    ...servicePeaks.map((peak) => peak / REAL_BUDGETS.serviceRequestsPerSecond),
    ...pimInFlight.map((peak) => peak / REAL_BUDGETS.pimMaxInFlight),
    ...pimRate.map((peak) => peak / REAL_BUDGETS.pimRequestsPerSecond),
  );
  const serviceRateLimited = serviceLogs.reduce((sum, log) => sum + log.filter((request) => request.status === 429).length, 0);
  const pimRateLimited = pimLogs.reduce((sum, log) => sum + log.filter((request) => request.status === 429).length, 0);

  const smallJobsDuring = during.filter((job) => job.timestamp >= t0 && job.finishedOn <= fleetEnd);
  const smallDuring = smallJobsDuring.map(latencyOf);
  // Where an event's or a small job's time went: waiting for a slot (enqueued → started) or running.
  const eventJobs = (await Promise.all(eventProjects.map((project) => queues.queueFor(project.id).getJobs(["completed"], 0, -1))))
    .flat()
    .filter((job) => job.name === "sync.events" && job.timestamp >= t0 && (job.finishedOn ?? 0) <= fleetEnd)
    .map((job) => ({ timestamp: job.timestamp, processedOn: job.processedOn ?? null, finishedOn: job.finishedOn ?? 0 }));
  const workerCpuS = cpuAfter.reduce<number>((sum, after, index) => sum + (after ?? 0) - (cpuBefore[index] ?? 0), 0);
  const benchCpuS = (benchCpu.user + benchCpu.system) / 1e6;
  const waits = smallDuring.map((latency) => latency - aloneMedian);
  const eventLatencies = duringEvents.flatMap((label) => {
    const written = writtenAt.get(label);
    const delivered = deliveredAt.get(label);
    return written === undefined || delivered === undefined ? [] : [written - delivered];
  });
  const wallS = wallMs / 1000;
  const mb = (bytes: number): number => round(bytes / 1_048_576, 2);

  const figures = {
    large_fleet_projects: plan.projects.length,
    large_fleet_429s: serviceRateLimited + pimRateLimited,
    large_fleet_peak_service_rps: Math.max(...servicePeaks),
    large_fleet_peak_pim_in_flight: Math.max(...pimInFlight),
    large_fleet_budget_ratio: round(budgetRatio, 3),
    large_fleet_ratio: round(wallMs / (floorS * 1000), 3),
    large_fleet_small_job_wait_p95_ms: roundOrNull(percentile(waits, 95)),
    large_fleet_event_p95_ms: roundOrNull(percentile(eventLatencies, 95)),
    large_fleet_redis_clients_per_process: args.startup.maxClients,
    large_fleet_start_cpu_s: args.startup.maxCpuS === null ? null : round(args.startup.maxCpuS, 2),
    large_fleet_idle_cpu_share: args.startup.maxIdleShare === null ? null : round(args.startup.maxIdleShare, 4),
    large_fleet_scheduled_wait_max_ms: Math.round(scheduledWaitMax),
  };
  const verdicts = Object.fromEntries(
    Object.entries(LARGE_FLEET_TARGETS).map(([key, spec]) => {
      const value = figures[key as keyof typeof LARGE_FLEET_TARGETS];
      return [key, { target: spec.target, met: value === null ? null : spec.met(value) }];
    }),
  ) as LargeFleetResult["verdicts"];
  progress(
    `large fleet: ${round(wallS, 2)} s against a floor of ${round(floorS, 2)} s, ratio ${figures.large_fleet_ratio}; 429s ${figures.large_fleet_429s}; ` +
      `budget ratio ${figures.large_fleet_budget_ratio}; small job wait p95 ${figures.large_fleet_small_job_wait_p95_ms} ms (${waits.length}); event p95 ${figures.large_fleet_event_p95_ms} ms (${eventLatencies.length})`,
  );
  return {
    figures,
    verdicts,
    measurements: {
      shape: {
        processes: workers.length,
        concurrency: LARGE_FLEET_CONCURRENCY,
        projects: plan.projects.length,
        scheduled: scheduled.length,
        small_job_projects: smallProjects.length,
        event_projects: eventProjects.length,
        collections_per_project: COLLECTIONS,
        service_accounts: plan.serviceAccounts,
        service_account_sizes: groupSizesText(plan.projects.map((project) => project.service)),
        pim_connections: plan.pimConnections,
        pim_connection_sizes: groupSizesText(plan.projects.map((project) => project.pim)),
        schedule_jitter_s: JITTER_MS / 1000,
        latency_ms: options.latencyMs,
        processes_start_s: args.startup.seconds,
        start_cpu_s_per_process: args.startup.cpuS,
        redis_clients_per_process: args.startup.clients,
        idle_cpu_share_per_process: args.startup.idleShares,
      },
      fleet: {
        wall_s: round(wallS, 3),
        floor_s: round(floorS, 3),
        floor_without_releases_s: round(Math.max(plainServiceFloor, ...pimFloors), 3),
        busiest_service_floor_s: round(Math.max(...serviceFloors), 3),
        busiest_pim_floor_s: round(Math.max(...pimFloors), 3),
        service_requests: serviceLogs.reduce((sum, log) => sum + log.length, 0),
        pim_requests: pimLogs.reduce((sum, log) => sum + log.length, 0),
        service_429: serviceRateLimited,
        pim_429: pimRateLimited,
        peak_service_rps_per_account: servicePeaks.join(" / "),
        peak_pim_in_flight_per_connection: pimInFlight.join(" / "),
        peak_pim_rps_per_connection: pimRate.join(" / "),
        jobs_per_process: workers.map((worker) => worker.runs().length).join(" / "),
        cpu_s_per_process: cpuAfter
          .map((after, index) => {
            const before = cpuBefore[index];
            return after === null || before === null || before === undefined ? "-" : String(round(after - before, 2));
          })
          .join(" / "),
        cpu_s_workers: round(workerCpuS, 2),
        cpu_s_simulators_and_bench: round(benchCpuS, 2),
        cpu_share_of_machine: round((workerCpuS + benchCpuS + redisAfter.cpuSeconds - redisBefore.cpuSeconds) / (wallS * cpus().length), 3),
        load_average_1m_min: Math.min(...loads),
        load_average_1m_max: Math.max(...loads),
      },
      small_job: {
        alone_p50_ms: round(aloneMedian, 0),
        during_jobs: smallDuring.length,
        during_p50_ms: roundOrNull(percentile(smallDuring, 50)),
        during_p95_ms: roundOrNull(percentile(smallDuring, 95)),
        during_max_ms: roundOrNull(smallDuring.length === 0 ? null : Math.max(...smallDuring)),
        ...splitOf(smallJobsDuring),
        wait_p95_ms: figures.large_fleet_small_job_wait_p95_ms,
        wait_max_ms: roundOrNull(waits.length === 0 ? null : Math.max(...waits)),
      },
      events: {
        emitted,
        targeted_syncs: eventJobs.length,
        ...splitOf(eventJobs),
        delivered_during_fleet: duringEvents.length,
        written: eventLatencies.length,
        p50_ms: roundOrNull(percentile(eventLatencies, 50)),
        p95_ms: figures.large_fleet_event_p95_ms,
        max_ms: roundOrNull(eventLatencies.length === 0 ? null : Math.max(...eventLatencies)),
      },
      redis: {
        used_memory_before_mb: mb(redisBefore.usedMemoryBytes),
        used_memory_after_mb: mb(redisAfter.usedMemoryBytes),
        used_memory_peak_mb: mb(redisAfter.usedMemoryPeakBytes),
        cpu_s: round(redisAfter.cpuSeconds - redisBefore.cpuSeconds, 2),
        cpu_share_of_wall: round((redisAfter.cpuSeconds - redisBefore.cpuSeconds) / wallS, 3),
        commands_per_s: round((redisAfter.totalCommands - redisBefore.totalCommands) / wallS, 0),
        connected_clients_peak: redisPeakClients,
      },
    },
  };
}

/** A service account's requests as work released with their projects' schedules (the rest at once). */
function serviceWork(
  log: readonly RecordedRequest[],
  collectionProject: ReadonlyMap<number, number>,
  releaseS: ReadonlyMap<number, number>,
): ReleasedWork[] {
  const perProject = new Map<number | null, number>();
  for (const request of log) {
    const written = /\/(\d+)\/(?:update|add)-options\/?$/.exec(request.path);
    const project = written === null ? Number(request.query.project) : (collectionProject.get(Number(written[1])) ?? null);
    const key = project !== null && releaseS.has(project) ? project : null;
    perProject.set(key, (perProject.get(key) ?? 0) + 1);
  }
  return [...perProject.entries()].map(([project, requests]) => ({
    releaseS: project === null ? 0 : (releaseS.get(project) ?? 0),
    requests,
  }));
}

/** p50 / p95 of the wait for a slot (enqueued → started) and of the run (started → done), ms. */
function splitOf(jobs: readonly FinishedJob[]): Record<string, number | null> {
  const queued = jobs.map((job) => (job.processedOn ?? job.timestamp) - job.timestamp);
  const running = jobs.map((job) => job.finishedOn - (job.processedOn ?? job.timestamp));
  return {
    queued_p50_ms: roundOrNull(percentile(queued, 50)),
    queued_p95_ms: roundOrNull(percentile(queued, 95)),
    running_p50_ms: roundOrNull(percentile(running, 50)),
    running_p95_ms: roundOrNull(percentile(running, 95)),
  };
}

function groupSizesText(groups: readonly number[]): string {
  const sizes = new Map<number, number>();
  for (const group of groups) sizes.set(group, (sizes.get(group) ?? 0) + 1);
  const shared = [...sizes.values()].filter((size) => size > 1).sort((a, b) => b - a);
  const alone = [...sizes.values()].filter((size) => size === 1).length;
  return `${shared.join(" / ")} shared, ${alone} alone`;
}

async function waitUntil(done: () => Promise<boolean>, timeoutMs: number, state: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`large fleet: gave up after ${timeoutMs / 1000} s (${state()})`);
    await sleep(POLL_MS);
  }
}

function roundOrNull(value: number | null): number | null {
  return value === null ? null : Math.round(value);
}
