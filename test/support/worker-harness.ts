import type { Job, Queue } from "bullmq";
import { pino, type Logger } from "pino";
import { createBullmqClusterConnection, createBullmqConnection } from "../../src/jobs/queues/create-bullmq-connection.js";
import { createJobAdmin, type JobAdmin } from "../../src/jobs/admin/job-admin.js";
import { createJobQueues, type JobQueues } from "../../src/jobs/queues/job-queues.js";
import { startAppWorker, type AppWorker } from "./app-worker.js";
import { settingsSchema, type Settings } from "../../src/settings/settings-schema.js";
import { loadSimCatalog, type SimCatalog } from "../../sim/catalog/catalog-file.js";
import {
  startConfigServiceSimulator,
  type ConfigServiceSimulator,
  type ConfigServiceSimulatorOptions,
} from "../../sim/config-service/config-service-simulator.js";
import { DEFAULT_OAUTH_CLIENT, type OAuthClient } from "../../sim/pim/oauth.js";
import { startPimSimulator, type PimSimulator, type PimSimulatorOptions } from "../../sim/pim/pim-simulator.js";
import { defaultCatalogPath } from "../../sim/start-simulators.js";
import { keyspaceOf } from "../../src/infra/redis/keyspace.js";
import type { RedisClient } from "../../src/infra/redis/redis-client.js";
import { createClusterTestRedis, createTestRedis, escapeRedisGlob, scanKeys, TEST_REDIS_URL, type TestRedis } from "./redis.js";
import { waitFor } from "./wait-for.js";

export const PROJECT = 67;
/** Every request of the PIM simulator's REST API (not its token endpoint): what a gate holds to keep a sync open. */
export const PIM_API = /^\/api\/rest\/v1\//;
/** Requests a test holds at a simulator's gate wait for the test, not for a timer. */
export const HELD_HTTP = { timeout_ms: 120_000 } as const;
/** The sample catalogue's second project: its service part has a `color` collection only. */
export const OTHER_PROJECT = 99;
export const SERVICE_TOKEN = "sim-service-token";
/** A second PIM connection (OAuth client) so two projects on one PIM have their own budgets. */
export const OTHER_PIM_CLIENT: OAuthClient = {
  clientId: "sim-client-99",
  secret: "sim-secret-99",
  username: "sim-user-99",
  password: "sim-password-99",
};

/** The collections the sample catalogue derives for project 67 and that exist in the service. */
export const DERIVED_67 = [
  "brand",
  "color",
  "designers",
  "material-de_DE",
  "material-en_US",
  "material-fr_FR",
  "price-currency",
  "season-ecommerce",
  "size_eu-en_US-ecommerce",
  "size_eu-en_US-mobile",
  "size_eu-fr_FR-ecommerce",
  "size_eu-fr_FR-mobile",
  "weight-unit",
] as const;

/** Sibling collections per attribute (value dimensions), as the sample catalogue derives them. */
export const SIBLINGS: Readonly<Record<string, readonly string[]>> = {
  color: ["color"],
  brand: ["brand"],
  material: ["material-de_DE", "material-en_US", "material-fr_FR"],
  size_eu: ["size_eu-en_US-ecommerce", "size_eu-en_US-mobile", "size_eu-fr_FR-ecommerce", "size_eu-fr_FR-mobile"],
};

/** Small timings so that worker behaviour shows within a test's time. */
export const FAST_WORKER = { lock_duration_ms: 2000, stalled_interval_ms: 1000, shutdown_timeout_ms: 5000 } as const;
export const FAST_HTTP = { timeout_ms: 5000, max_attempts: 3, base_delay_ms: 5, max_delay_ms: 50, max_retry_after_ms: 2000 } as const;
export const FAST_ADD_OPTIONS = { visibility_delay_ms: 50 } as const;

/** One line a worker logged (pino, captured in memory), tagged with the worker's name. */
export interface WorkerLogEntry {
  /** Position in the log shared by every worker of the harness: a total order of what happened. */
  readonly seq: number;
  readonly worker: string;
  readonly level: number;
  readonly msg: string;
  readonly job?: string;
  readonly jobName?: string;
  readonly project?: number;
  readonly attempt?: number;
  readonly verdict?: string;
  readonly reason?: string;
  readonly [key: string]: unknown;
}

/** One run of a job's handler in a worker, from its "job started" line to its "job done"/"job failed" line. */
export interface HandlerRun {
  readonly worker: string;
  readonly project: number;
  readonly job: string;
  readonly jobName: string;
  readonly startSeq: number;
  /** null while still running. */
  readonly endSeq: number | null;
  readonly outcome: "done" | "failed" | "running";
  readonly verdict?: string;
}

/** An event of a queue's BullMQ event stream; `id` is Redis' `<ms>-<seq>`, strictly ordered. */
export interface QueueEvent {
  readonly id: string;
  readonly event: string;
  readonly jobId?: string;
  readonly prev?: string;
  readonly [key: string]: string | undefined;
}

export interface TestWorker extends AppWorker {
  readonly name: string;
  readonly settings: Settings;
  readonly stopped: boolean;
}

export type ProjectInput = Record<string, unknown> & { readonly id: number };

export interface WorkerSettingsInput {
  readonly projects: readonly ProjectInput[];
  readonly worker?: Record<string, unknown>;
  readonly http?: Record<string, unknown>;
  readonly add_options?: Record<string, unknown>;
  /** The worker's HTTP server (`port: 0`), when a test reads its routes. */
  readonly server?: Record<string, unknown>;
}

export interface WorkerHarness {
  readonly pim: PimSimulator;
  readonly service: ConfigServiceSimulator;
  readonly redis: TestRedis<RedisClient>;
  /** Every line logged by every worker started here, in order. */
  readonly logs: readonly WorkerLogEntry[];
  /** Config of one project pointing at the simulators (PIM connection, service token). */
  project(id: number, extra?: Record<string, unknown>): ProjectInput;
  /** Settings as `settingsSchema` parses them, with the fast timings and the test's Redis prefix. */
  settings(input?: Partial<WorkerSettingsInput>): Settings;
  /** A worker started through `createApp` (app-worker.ts), its logger captured under `name`; stopped by `close()` if still running. */
  startWorker(settings?: Settings, name?: string): Promise<TestWorker>;
  /** A producer's queues (its own connection), like the CLI's: for enqueueing and inspecting. */
  readonly queues: JobQueues;
  readonly admin: JobAdmin;
  queue(project?: number): Queue;
  /** The queue's BullMQ event stream, oldest first. */
  events(project?: number): Promise<QueueEvent[]>;
  /** The handler runs the workers logged, oldest first. */
  handlerRuns(project?: number): HandlerRun[];
  /**
   * Stops the workers, then checks that every job (and job template) under the test's prefix
   * carries a bounded retention: whatever path a test exercised, a job that would stay in Redis
   * forever fails the test here. Then releases everything.
   */
  close(): Promise<void>;
}

/**
 * The real parts a worker talks to: the PIM and configuration-service simulators (real HTTP
 * servers, the service linked to the PIM so add-options lands there too) with the sample
 * catalogue, a Redis prefix of the test's own, and in-process workers whose logs are kept.
 */
export async function startWorkerHarness(
  options: {
    readonly editCatalog?: (catalog: SimCatalog) => void;
    readonly pim?: Partial<Omit<PimSimulatorOptions, "catalog">>;
    readonly service?: Partial<Omit<ConfigServiceSimulatorOptions, "catalog" | "pim">>;
    /** A Redis Cluster's startup nodes (own-redis-cluster.ts) instead of the shared test Redis. */
    readonly clusterNodes?: readonly string[];
  } = {},
): Promise<WorkerHarness> {
  const catalog = await loadSimCatalog(defaultCatalogPath());
  options.editCatalog?.(catalog);
  const pim = await startPimSimulator({ catalog: catalog.pim, clients: [DEFAULT_OAUTH_CLIENT, OTHER_PIM_CLIENT], ...options.pim });
  const service = await startConfigServiceSimulator({ catalog: catalog.service, pim, ...options.service });
  const { clusterNodes } = options;
  const redis: TestRedis<RedisClient> = clusterNodes ? await createClusterTestRedis(clusterNodes) : await createTestRedis();
  const producerConnection = clusterNodes
    ? createBullmqClusterConnection(clusterNodes, "producer")
    : createBullmqConnection(TEST_REDIS_URL, "producer");
  const redisSettings = clusterNodes ? { cluster: { nodes: [...clusterNodes], failover_wait_ms: 30_000 } } : { url: TEST_REDIS_URL };
  const projectIds = [PROJECT, OTHER_PROJECT];
  const queues = createJobQueues({
    connection: producerConnection,
    prefix: redis.prefix,
    projects: projectIds,
    retention: { keep_completed_days: 1, keep_failed_days: 1 },
  });
  const admin = createJobAdmin(queues);
  const logs: WorkerLogEntry[] = [];
  const workers: TestWorker[] = [];

  function project(id: number, extra: Record<string, unknown> = {}): ProjectInput {
    const client = id === PROJECT ? DEFAULT_OAUTH_CLIENT : OTHER_PIM_CLIENT;
    return {
      id,
      pim: { url: pim.url, client_id: client.clientId, secret: client.secret, username: client.username, password: client.password },
      service: { url: service.url, token: SERVICE_TOKEN },
      allowed_options_for_pim_attribute_addition: ["color", "material", "size_eu", "brand", "weight"],
      ...extra,
    };
  }

  function settings(input: Partial<WorkerSettingsInput> = {}): Settings {
    const parsed = settingsSchema.parse({
      // createTestRedis' prefix has a ':' the config schema does not allow: parse with a
      // stand-in and put the test's prefix in afterwards (BullMQ and the state store accept it).
      redis: { ...redisSettings, prefix: "stand-in" },
      log_level: "info",
      http: { ...FAST_HTTP, ...input.http },
      worker: { ...FAST_WORKER, ...input.worker },
      add_options: { ...FAST_ADD_OPTIONS, ...input.add_options },
      projects: input.projects ?? [project(PROJECT)],
      ...(input.server ? { server: input.server } : {}),
    });
    return { ...parsed, redis: { ...redisSettings, prefix: redis.prefix, connect_timeout_ms: 5_000 } };
  }

  function captureLogger(name: string): Logger {
    return pino(
      { level: "info", base: { worker: name } },
      {
        write(line: string) {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push({ ...entry, seq: logs.length } as WorkerLogEntry);
        },
      },
    );
  }

  async function startTestWorker(workerSettings: Settings = settings(), name = `worker-${workers.length + 1}`): Promise<TestWorker> {
    const running = await startAppWorker({ settings: workerSettings, logger: captureLogger(name) });
    let stopped = false;
    let stopping: Promise<void> | undefined;
    const worker: TestWorker = {
      ...running,
      name,
      settings: workerSettings,
      get stopped() {
        return stopped;
      },
      stop() {
        stopping ??= running.stop().finally(() => (stopped = true));
        return stopping;
      },
    };
    workers.push(worker);
    return worker;
  }

  function queue(id = PROJECT): Queue {
    return queues.queueFor(id);
  }

  async function events(id = PROJECT): Promise<QueueEvent[]> {
    const key = `${redis.prefix}:${keyspaceOf(redis.redis, redis.prefix).projectQueue(id)}:events`;
    const entries = await redis.redis.xrange(key, "-", "+");
    return entries.map(([eventId, fields]) => {
      const event: Record<string, string> = { id: eventId };
      for (let i = 0; i + 1 < fields.length; i += 2) event[fields[i] as string] = fields[i + 1] as string;
      return event as unknown as QueueEvent;
    });
  }

  function handlerRuns(id?: number): HandlerRun[] {
    const runs: HandlerRun[] = [];
    const open = new Map<string, number>();
    for (const entry of logs) {
      // Only the processor's lines carry both the job and its project.
      if (entry.job === undefined || entry.project === undefined || entry.jobName === undefined) continue;
      if (id !== undefined && entry.project !== id) continue;
      const key = `${entry.worker}/${entry.project}/${entry.job}`;
      if (entry.msg === "job started") {
        open.set(key, runs.length);
        runs.push({
          worker: entry.worker,
          project: entry.project,
          job: entry.job,
          jobName: entry.jobName,
          startSeq: entry.seq,
          endSeq: null,
          outcome: "running",
        });
      } else if (entry.msg === "job done" || entry.msg === "job failed" || entry.msg.startsWith("job interrupted")) {
        const index = open.get(key);
        if (index === undefined) continue;
        open.delete(key);
        const run = runs[index] as HandlerRun;
        runs[index] = {
          ...run,
          endSeq: entry.seq,
          outcome: entry.msg === "job done" ? "done" : "failed",
          ...(entry.verdict ? { verdict: entry.verdict } : {}),
        };
      }
    }
    return runs;
  }

  return {
    pim,
    service,
    redis,
    logs,
    project,
    settings,
    startWorker: startTestWorker,
    queues,
    admin,
    queue,
    events,
    handlerRuns,
    async close() {
      await Promise.allSettled(workers.map((worker) => worker.stop()));
      const unbounded = await jobsWithoutRetention(redis.redis, redis.prefix).catch(() => []);
      await queues.close().catch(() => undefined);
      await producerConnection.quit().catch(() => producerConnection.disconnect());
      await Promise.allSettled([service.close(), pim.close()]);
      await redis.cleanup();
      if (unbounded.length > 0) throw new Error(`jobs without removeOnComplete/removeOnFail: ${unbounded.join("; ")}`);
    },
  };
}

/**
 * The job with its state when it is in one of `states`, else null. The state is read first and
 * the job after it, so a job seen in a final state carries that state's fields (result, attempts).
 */
export async function jobInState(queue: Queue, id: string, states: readonly string[]): Promise<{ job: Job; state: string } | null> {
  const state = await queue.getJobState(id);
  if (!states.includes(state)) return null;
  const job = await queue.getJob(id);
  return job ? { job, state } : null;
}

/** True when the queue has nothing waiting, active, delayed or prioritized. */
export async function isDrained(queue: Queue): Promise<boolean> {
  const counts = await queue.getJobCounts("waiting", "active", "delayed", "prioritized", "waiting-children");
  return Object.values(counts).every((count) => count === 0);
}

/**
 * Replays a queue's event stream and returns every moment two jobs were active at once (empty
 * when the queue ran one job at a time). The stream is written by Redis scripts, so its order
 * is the order in which jobs really entered and left `active`, whichever worker moved them.
 */
export function overlapsInEvents(events: readonly QueueEvent[]): string[] {
  const active = new Set<string>();
  const overlaps: string[] = [];
  for (const event of events) {
    const jobId = event.jobId;
    if (jobId === undefined) continue;
    if (event.event === "active") {
      if (active.size > 0) overlaps.push(`job ${jobId} became active at ${event.id} while ${[...active].join(", ")} was active`);
      active.add(jobId);
    } else if (
      ["completed", "failed", "delayed", "stalled", "retries-exhausted"].includes(event.event) ||
      (event.event === "waiting" && event.prev === "active")
    ) {
      active.delete(jobId);
    }
  }
  return overlaps;
}

/** Every moment two handler runs of one project overlapped (by the shared log's order). */
export function overlapsInRuns(runs: readonly HandlerRun[]): string[] {
  const overlaps: string[] = [];
  for (const [i, a] of runs.entries()) {
    for (const b of runs.slice(i + 1)) {
      if (a.project !== b.project) continue;
      const aEnd = a.endSeq ?? Number.POSITIVE_INFINITY;
      const bEnd = b.endSeq ?? Number.POSITIVE_INFINITY;
      if (a.startSeq < bEnd && b.startSeq < aEnd)
        overlaps.push(`${a.worker}:${a.jobName}#${a.job} and ${b.worker}:${b.jobName}#${b.job} of project ${a.project}`);
    }
  }
  return overlaps;
}

/** Waits until the job completed or failed; returns it (reloaded) with its final state. */
export async function finishedJob(queue: Queue, id: string, timeoutMs = 15_000): Promise<{ job: Job; state: "completed" | "failed" }> {
  const found = await waitFor(() => jobInState(queue, id, ["completed", "failed"]), {
    timeoutMs: timeoutMs,
    what: `job ${id} of ${queue.name} to complete or fail`,
  });
  return { job: found.job, state: found.state as "completed" | "failed" };
}

/** The add-options requests the service simulator answered (any status). */
export function addOptionsRequests(service: ConfigServiceSimulator): ConfigServiceSimulator["requests"] {
  return service.requests.filter((request) => request.method === "PATCH" && request.path.endsWith("/add-options/"));
}

/** The service's live options of one collection, by name. */
export function serviceOptions(
  service: ConfigServiceSimulator,
  collection: string,
  project = PROJECT,
): { name: string; label: Record<string, string> }[] {
  const found = service.collections().find((c) => c.name === collection && c.project === project);
  if (!found) throw new Error(`no collection '${collection}' in project ${project}`);
  return found.options.map((o) => ({ name: o.name, label: { ...o.label } }));
}

/** The PIM simulator's live option codes of a select attribute, or record codes of a reference entity. */
export function pimCodes(pim: PimSimulator, attribute: string): string[] {
  const found = pim.state.attributes.find((a) => a.code === attribute);
  if (found?.reference_data_name && found.type.startsWith("akeneo_reference_entity")) {
    return (pim.state.reference_entity_records[found.reference_data_name] ?? []).map((record) => record.code);
  }
  return (pim.state.attribute_options[attribute] ?? []).map((option) => option.code);
}

/**
 * Every job hash under `prefix` (jobs, scheduler templates, follow-up proto-jobs: whatever holds
 * `opts`) whose options lack removeOnComplete or removeOnFail, as `key: opts`. Empty when every
 * job pim-sync created will be removed in time.
 */
export async function jobsWithoutRetention(client: RedisClient, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for (const key of await scanKeys(client, `${escapeRedisGlob(prefix)}:*`)) {
    if ((await client.type(key)) !== "hash") continue;
    const raw = await client.hget(key, "opts");
    if (raw === null) continue;
    const opts = JSON.parse(raw) as Record<string, unknown>;
    // BullMQ keeps these two under their own names in the stored options.
    if (opts.removeOnComplete === undefined || opts.removeOnFail === undefined) found.push(`${key}: ${raw}`);
  }
  return found;
}
