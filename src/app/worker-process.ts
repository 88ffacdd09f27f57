import type { RedisClient } from "../infra/redis/redis-client.js";
import type { Logger } from "pino";
import { prepareWorker, type PreparedWorker, type RunningWorker } from "../jobs/worker/start-worker.js";
import type { AppActivationParts } from "../jobs/worker/start-activation-worker.js";
import type { WorkerResources } from "../jobs/worker/worker-resources.js";
import type { HttpServer } from "../server/http/listen-http-app.js";
import { listenSettingsOf } from "../server/http/listen-settings.js";
import { redisNotReadyReason } from "../server/http/redis-readiness.js";
import type { Settings } from "../settings/settings-schema.js";
import type { JobQueues } from "../jobs/queues/job-queues.js";
import type { JobHandlers } from "../jobs/catalog/job-handlers.js";
import type { JobCatalog } from "../jobs/catalog/job-catalog-of.js";
import { withRedisDeadline } from "../server/http/redis-deadline.js";
import type { JsonKeyStyle } from "../core/json/json-key-style.js";
import type { ProjectRuntime } from "../features/project-runtime.js";
import { heldOptionCount, type HeldPlan } from "../features/sync/held/held-plan.js";
import type { ReviewAdmin } from "../server/admin/review-admin-routes.js";
import type { StateStore } from "../stores/state/state-store.js";
import { schedulePeriodMs } from "../jobs/schedules/schedule-period.js";

/**
 * A worker process whose HTTP listener is open and whose worker may still be waiting for Redis.
 * It has no stop of its own: every part is on the release stack it was given.
 */
export interface OpenWorkerProcess {
  readonly serverUrl: string | null;
  readonly triggerUrl: string | null;
  /**
   * The started worker; rejects when the start failed or was abandoned by the stop. What a
   * failed start acquired is released by the stop, which its caller owes in either case.
   */
  readonly started: Promise<RunningWorker>;
}

/** The reason /readyz gives until the worker has started. */
export const WORKER_STARTING_REASON = "worker: starting (queues, workers and schedules are set up once Redis answers)";

/**
 * The worker command's whole process: the job worker, and in front of it one HTTP server serving
 * the surfaces of one table (surfaces/http-surfaces.ts: health, metrics, PIM events, admin and
 * console, trigger), each as the config asks. The server is composed here so that the job layer
 * knows nothing of HTTP.
 *
 * The listener opens first, before anything waits for Redis: an orchestrator sees `/healthz`
 * 200 and `/readyz` 503 (naming Redis) while Redis is away at start, rather than a refused
 * connection it would restart the process for; the trigger and admin routes answer 503 with
 * Retry-After meanwhile. A port already taken therefore fails the start before the worker has
 * written anything to Redis.
 *
 * Every part is recorded on `resources` as it is acquired (the worker's, see start-worker.ts,
 * then the listener), so that the one release of that stack is the process's stop: the listener
 * first (no request once stopping), then the jobs, then the queues and clients they used.
 */
export interface WorkerProcessArgs {
  readonly settings: Settings;
  readonly logger: Logger;
  /** The worker's Redis connection, owned by the caller (the app). */
  readonly connection: RedisClient;
  /** The app's release stack. */
  readonly resources: WorkerResources;
  /** The keys of the admin API's and `GET /v1/jobs`' answers: snake_case unless `camel` (removed in 0.3.0). */
  readonly jsonKeys?: JsonKeyStyle;
  /** Replaced only to measure the queue's own cost (bench/). */
  readonly handlers?: JobHandlers;
  /** The catalog's list, or in a test the list with an entry of its own. */
  readonly catalog?: JobCatalog;
  /** A configured project's runtime, the app's, made at the project's first need. */
  readonly runtimeOf: (project: number) => Promise<ProjectRuntime>;
  /** The projects' queues, the app's. */
  readonly queues: JobQueues;
  /** The Activation queue and runtime, the app's, when `activation` is configured. */
  readonly activation: AppActivationParts | null;
  /** The app's change history and held plans. */
  readonly review: ReviewAdmin;
  /** The app's state store (the console reads option labels from it). */
  readonly state: StateStore;
  /** Hands the worker's metrics the upstream answers of the app's project clients. */
  observeUpstreams(observer: (upstream: "pim" | "service", status: number | "error") => void): void;
}

export async function openWorkerProcess(args: WorkerProcessArgs): Promise<OpenWorkerProcess> {
  const { settings, logger } = args;
  const listen = listenSettingsOf(settings);
  // The app's queues and stores exist already; the event stores once the worker is prepared
  // (the gauges are only read at scrape time).
  const { queues } = args;
  const activationQueue = args.activation?.queue.queue ?? null;
  let pimEvents: PreparedWorker["pimEvents"] | null = null;
  let subscriptions: PreparedWorker["subscriptions"] | null = null;
  const eventProjects = settings.projects.filter((project) => project.pim.events !== undefined).map((project) => project.id);
  const { held } = args.review;
  // Looked up per project on every scrape: a map, not a search of the project list each time.
  const schedules = new Map(settings.projects.flatMap((project) => (project.schedule ? [[project.id, project.schedule] as const] : [])));
  // The two held-plan gauges read a project's pending plans in the same scrape (prom-client
  // collects its metrics side by side): the read in flight serves both.
  const reading = new Map<number, Promise<HeldPlan[]>>();
  const pendingPlans = (project: number, timeoutMs: number): Promise<HeldPlan[]> => {
    let plans = reading.get(project);
    if (plans === undefined) {
      plans = withRedisDeadline(timeoutMs, held.list(project))
        .then((all) => all.filter((plan) => plan.approved === null))
        .finally(() => reading.delete(project));
      reading.set(project, plans);
    }
    return plans;
  };
  // Set once the worker is prepared: `/readyz` and the `pim_sync_ready` gauge ask the same question.
  let notReadyReasons: (() => Promise<readonly string[]>) | null = null;
  // The HTTP server's parts (fastify, prom-client, the surfaces and what they import) are loaded
  // only when the config has a listener: a worker without one starts without them.
  const metrics = listen
    ? (await import("../server/metrics/worker-metrics.js")).createWorkerMetrics({
        projects: settings.projects.map((project) => project.id),
        // Labels `pim_sync_job_runs_total` with the entries of the catalog the worker runs.
        catalog: args.catalog,
        jobCounts: (project) =>
          withRedisDeadline(
            listen.redis_timeout_ms,
            queues.queueFor(project).getJobCounts("waiting", "active", "delayed", "failed", "completed"),
          ),
        activationJobCounts: activationQueue
          ? () =>
              withRedisDeadline(
                listen.redis_timeout_ms,
                activationQueue.getJobCounts("waiting", "active", "delayed", "failed", "completed"),
              )
          : undefined,
        lastPimEventAt:
          eventProjects.length === 0
            ? undefined
            : {
                projects: eventProjects,
                read: (project) =>
                  pimEvents ? withRedisDeadline(listen.redis_timeout_ms, pimEvents.lastEventAt(project)) : Promise.resolve(null),
              },
        subscriptionState:
          eventProjects.length === 0
            ? undefined
            : {
                projects: eventProjects,
                read: async (project) =>
                  subscriptions ? ((await withRedisDeadline(listen.redis_timeout_ms, subscriptions.read(project)))?.state ?? null) : null,
              },
        heldDeletions: async (project) =>
          (await pendingPlans(project, listen.redis_timeout_ms)).reduce((sum, plan) => sum + heldOptionCount(plan), 0),
        heldWaitingSince: async (project) => {
          const since = (await pendingPlans(project, listen.redis_timeout_ms)).map((plan) => Date.parse(plan.heldAt));
          return since.length === 0 ? null : Math.min(...since);
        },
        schedulePeriodMs: (project) => {
          const schedule = schedules.get(project);
          return schedule ? schedulePeriodMs({ pattern: schedule.cron, tz: schedule.timezone }) : null;
        },
        ready: async () => (notReadyReasons ? (await notReadyReasons()).length === 0 : false),
      })
    : undefined;
  if (metrics) args.observeUpstreams((upstream, status) => metrics.upstreamResponse(upstream, status));
  const prepared = prepareWorker({
    settings,
    logger,
    connection: args.connection,
    resources: args.resources,
    runtimeOf: args.runtimeOf,
    queues,
    activation: args.activation,
    observer: metrics,
    handlers: args.handlers,
    catalog: args.catalog,
  });
  pimEvents = prepared.pimEvents;
  subscriptions = prepared.subscriptions;
  let running: RunningWorker | null = null;
  let server: HttpServer | null = null;
  const readiness = (): Promise<readonly string[]> => notReadyReasonsOf(prepared, () => running, listen?.redis_timeout_ms ?? 0);
  notReadyReasons = readiness;
  if (listen) {
    for (const deprecation of listen.deprecations) logger.warn({ config: deprecation }, "deprecated config key");
    const { startHttpServer } = await import("./start-http-server.js");
    const listening = await startHttpServer({
      worker: prepared,
      notReadyReasons: readiness,
      running: () => running,
      settings,
      listen,
      logger,
      metrics,
      jsonKeys: args.jsonKeys ?? "snake",
      review: args.review,
      state: args.state,
    });
    // Acquired after the worker's jobs, so closed before them: no new request once stopping.
    args.resources.push("HTTP listener", () => listening.close());
    server = listening;
    logger.info({ url: listening.url }, "HTTP server listening");
  }
  const started = prepared.start().then((worker) => (running = worker));
  // The caller may never await it (stopped before Redis answered).
  started.catch(() => undefined);
  const serverUrl = server?.url ?? null;
  return { serverUrl, triggerUrl: settings.trigger ? serverUrl : null, started };
}

/** Why the worker cannot work now (empty when it can): Redis does not answer, or a worker is not running. */
async function notReadyReasonsOf(prepared: PreparedWorker, running: () => RunningWorker | null, redisTimeoutMs: number): Promise<string[]> {
  const redis = await redisNotReadyReason(prepared.connection, redisTimeoutMs);
  const worker = running();
  const workers =
    worker === null
      ? [WORKER_STARTING_REASON]
      : worker.stoppedProjects().map((project) => `worker: project ${project}'s worker is not running`);
  return [...(redis === null ? [] : [redis]), ...workers];
}
