import type { RedisClient } from "../infra/redis/redis-client.js";
import type { Logger } from "pino";
import { prepareWorker, type PreparedWorker, type RunningWorker } from "../jobs/worker/start-worker.js";
import type { WorkerResources } from "../jobs/worker/worker-resources.js";
import { createHttpApp } from "../server/http/create-http-app.js";
import { healthRoutes } from "../server/http/health-routes.js";
import { faviconRoute } from "../server/http/favicon-route.js";
import { listenHttpApp, type HttpServer } from "../server/http/listen-http-app.js";
import { listenSettingsOf } from "../server/http/listen-settings.js";
import { redisNotReadyReason } from "../server/http/redis-readiness.js";
import { refuseWhileStarting } from "../server/http/refuse-while-starting.js";
import type { Settings } from "../settings/settings-schema.js";
import { triggerRoutes } from "../server/trigger/trigger-routes.js";
import { adminRoutes } from "../server/admin/admin-routes.js";
import { createJobAdmin } from "../jobs/admin/job-admin.js";
import type { JobQueues } from "../jobs/queues/job-queues.js";
import type { JobHandlers } from "../jobs/catalog/job-handlers.js";
import type { JobCatalog } from "../jobs/catalog/job-catalog-of.js";
import { metricsRoutes } from "../server/metrics/metrics-routes.js";
import { createWorkerMetrics, type WorkerMetrics } from "../server/metrics/worker-metrics.js";
import { withRedisDeadline } from "../server/http/redis-deadline.js";
import { createAuthGate } from "../server/auth/auth-gate.js";
import type { AuthSurface } from "../server/auth/auth-refusal.js";
import { redactorOfSettings } from "../infra/secrets/redactor-of-settings.js";
import type { JsonKeyStyle } from "../core/json/json-key-style.js";
import { pimEventRoutes } from "../server/trigger/pim-event-routes.js";
import { pimEventNotificationRoutes } from "../server/trigger/pim-event-notification-routes.js";
import { packageVersion } from "./package-version.js";
import { openApiRoutes } from "../server/openapi/openapi-routes.js";
import type { ProjectRuntime } from "../features/project-runtime.js";
import type { UpstreamBudgets } from "../infra/budgets/upstream-budgets.js";
import type { HeldStore } from "../features/sync/held/held-store.js";
import { heldOptionCount, type HeldPlan } from "../features/sync/held/held-plan.js";
import type { ReviewAdmin } from "../server/admin/review-admin-routes.js";
import { readProjectJobStatus } from "../jobs/admin/project-job-status.js";
import { budgetsOfProjects, readBudgetUsage } from "../infra/budgets/budget-usage.js";
import { keyspaceOf } from "../infra/redis/keyspace.js";
import { redisPrefixOf } from "../settings/redis-prefix-of.js";
import { createRedisStateStore } from "../stores/state/redis-state-store.js";
import { eventWindowDelay } from "../features/events/event-window.js";
import { FALLBACK_SCHEDULER_ID } from "../infra/redis/queue-names.js";
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

/** The `route` label of requests no route matched: their paths would make the label unbounded. */
const UNMATCHED_ROUTE = "unmatched";

/** The reason /readyz gives until the worker has started. */
export const WORKER_STARTING_REASON = "worker: starting (queues, workers and schedules are set up once Redis answers)";

/**
 * The worker command's whole process: the job worker, and in front of it one HTTP server with
 * the health checks and, when `trigger` is configured, the trigger routes. The server is
 * composed here so that the job layer knows nothing of HTTP.
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
  /** The app's change history and held plans. */
  readonly review: ReviewAdmin;
  /** The app's upstream budgets, which its project runtimes use. */
  readonly budgets: UpstreamBudgets;
  /** Hands the worker's metrics the upstream answers of the app's project clients. */
  observeUpstreams(observer: (upstream: "pim" | "service", status: number | "error") => void): void;
}

export async function openWorkerProcess(args: WorkerProcessArgs): Promise<OpenWorkerProcess> {
  const { settings, logger } = args;
  const listen = listenSettingsOf(settings);
  // The queues exist once the worker is prepared; the gauges are only read at scrape time.
  let queuesOf: JobQueues | null = null;
  let activationQueue: NonNullable<PreparedWorker["activation"]>["queue"]["queue"] | null = null;
  let pimEvents: PreparedWorker["pimEvents"] | null = null;
  let subscriptions: PreparedWorker["subscriptions"] | null = null;
  const eventProjects = settings.projects.filter((project) => project.pim.events !== undefined).map((project) => project.id);
  let held: HeldStore | null = null;
  // Looked up per project on every scrape: a map, not a search of the project list each time.
  const schedules = new Map(settings.projects.flatMap((project) => (project.schedule ? [[project.id, project.schedule] as const] : [])));
  // The two held-plan gauges read a project's pending plans in the same scrape (prom-client
  // collects its metrics side by side): the read in flight serves both.
  const reading = new Map<number, Promise<HeldPlan[]>>();
  const pendingPlans = (project: number, timeoutMs: number): Promise<HeldPlan[]> => {
    const store = held;
    if (store === null) return Promise.resolve([]);
    let plans = reading.get(project);
    if (plans === undefined) {
      plans = withRedisDeadline(timeoutMs, store.list(project))
        .then((all) => all.filter((plan) => plan.approved === null))
        .finally(() => reading.delete(project));
      reading.set(project, plans);
    }
    return plans;
  };
  // Set once the worker is prepared: `/readyz` and the `pim_sync_ready` gauge ask the same question.
  let notReadyReasons: (() => Promise<readonly string[]>) | null = null;
  const metrics = listen
    ? createWorkerMetrics({
        projects: settings.projects.map((project) => project.id),
        // Labels `pim_sync_job_runs_total` with the entries of the catalog the worker runs.
        catalog: args.catalog,
        jobCounts: async (project) => {
          if (!queuesOf) return {};
          return withRedisDeadline(
            listen.redis_timeout_ms,
            queuesOf.queueFor(project).getJobCounts("waiting", "active", "delayed", "failed", "completed"),
          );
        },
        activationJobCounts: settings.activation
          ? async () => {
              if (!activationQueue) return {};
              return withRedisDeadline(
                listen.redis_timeout_ms,
                activationQueue.getJobCounts("waiting", "active", "delayed", "failed", "completed"),
              );
            }
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
          held ? (await pendingPlans(project, listen.redis_timeout_ms)).reduce((sum, plan) => sum + heldOptionCount(plan), 0) : null,
        heldWaitingSince: async (project) => {
          const since = held ? (await pendingPlans(project, listen.redis_timeout_ms)).map((plan) => Date.parse(plan.heldAt)) : [];
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
    budgets: args.budgets,
    observer: metrics,
    handlers: args.handlers,
    catalog: args.catalog,
  });
  queuesOf = prepared.queues;
  activationQueue = prepared.activation?.queue.queue ?? null;
  pimEvents = prepared.pimEvents;
  subscriptions = prepared.subscriptions;
  const review = args.review;
  held = review.held;
  let running: RunningWorker | null = null;
  let server: HttpServer | null = null;
  const readiness = (): Promise<readonly string[]> => notReadyReasonsOf(prepared, () => running, listen?.redis_timeout_ms ?? 0);
  notReadyReasons = readiness;
  if (listen) {
    for (const deprecation of listen.deprecations) logger.warn({ config: deprecation }, "deprecated config key");
    const listening = await startServer(
      prepared,
      readiness,
      () => running,
      settings,
      listen,
      logger,
      metrics,
      args.jsonKeys ?? "snake",
      review,
    );
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

async function startServer(
  prepared: PreparedWorker,
  notReadyReasons: () => Promise<readonly string[]>,
  running: () => RunningWorker | null,
  settings: Settings,
  listen: NonNullable<ReturnType<typeof listenSettingsOf>>,
  logger: Logger,
  metrics: WorkerMetrics | undefined,
  jsonKeys: JsonKeyStyle,
  review: ReviewAdmin,
): Promise<HttpServer> {
  const redactor = redactorOfSettings(settings);
  const app = createHttpApp({ limits: listen, logger, redactor, version: packageVersion() });
  // On the root instance before any route is registered, so every scope's routes inherit it.
  if (metrics)
    app.addHook("onResponse", async (request, reply) =>
      metrics.httpRequestAnswered(
        request.method,
        request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE),
        reply.statusCode,
      ),
    );
  const gate = (surface: AuthSurface) => createAuthGate({ surface, limits: listen.auth_throttle, logger, observer: metrics });
  await app.register(healthRoutes, { notReadyReasons });
  await app.register(faviconRoute);
  await app.register(openApiRoutes);
  if (metrics) await app.register(metricsRoutes, { registry: metrics.registry, token: listen.metrics_token, gate: gate("metrics") });
  if (settings.projects.some((project) => project.pim.events !== undefined)) {
    // Outside the starting gate: recording an event needs Redis, not the started worker, and a
    // 503 while the worker starts would count towards suspending the subscription.
    await app.register(pimEventRoutes, {
      projects: settings.projects,
      store: prepared.pimEvents,
      enqueue: async (project, window) => void (await prepared.queues.enqueue("sync.events", { project }, eventWindowDelay(window))),
      logger,
      redisTimeoutMs: listen.redis_timeout_ms,
      warnIntervalMs: listen.auth_throttle.log_interval_ms,
      observer: metrics,
    });
    // Beside the events' route: the platform's notifications of a subscription suspended, revoked or resumed.
    await app.register(pimEventNotificationRoutes, {
      projects: settings.projects,
      subscriptions: prepared.subscriptions,
      applySyncMode: (project) => prepared.fallbackSchedules.apply(project),
      logger,
      redisTimeoutMs: listen.redis_timeout_ms,
      warnIntervalMs: listen.auth_throttle.log_interval_ms,
      observer: metrics,
    });
  }
  const jobAdmin = createJobAdmin(prepared.queues, {
    redactor,
    ...(prepared.activation ? { activation: prepared.activation.queue.queue } : {}),
  });
  // The routes that need the started worker, in a scope of their own behind the starting gate.
  await app.register(async (scope) => {
    scope.addHook(
      "onRequest",
      refuseWhileStarting(() => running() !== null),
    );
    if (listen.admin) {
      const budgets = budgetsOfProjects(settings.projects);
      // Read only, on the worker's connection (which it does not close).
      const state = createRedisStateStore(prepared.connection, redisPrefixOf(settings));
      const activation = prepared.activation ? { queue: prepared.activation.queue, state: prepared.activation.runtime.state } : undefined;
      await scope.register(adminRoutes, {
        users: listen.admin.users,
        admin: jobAdmin,
        queues: prepared.queues,
        review,
        logger,
        redisTimeoutMs: listen.redis_timeout_ms,
        activation,
        gate: gate("admin"),
        jsonKeys,
        console: {
          retentionMs: settings.history.retention_ms,
          sources: {
            projects: settings.projects.map((project) => project.id),
            eventProjects: new Set(settings.projects.filter((project) => project.pim.events !== undefined).map((project) => project.id)),
            // Failure reasons are errors' messages: through the redactor, as every answer.
            jobStatus: async (project) => redactor.redactValue(await readProjectJobStatus(prepared.queues, project)),
            lastEventAt: (project) => prepared.pimEvents.lastEventAt(project),
            subscription: (project) => prepared.subscriptions.read(project),
            fallbackEveryMs: async (project) => {
              const scheduler = await prepared.queues.queueFor(project).getJobScheduler(FALLBACK_SCHEDULER_ID);
              return scheduler?.every === undefined || scheduler.every === null ? null : Number(scheduler.every);
            },
            held: (project) => review.held.list(project),
            optionLabels: async (project, collection, options) => {
              const wanted = new Set(options);
              const found = await state.readSome(project, collection, (name) => wanted.has(name));
              return options.map((option) => found?.entries.get(option) ?? null);
            },
            budgets: () => readBudgetUsage(prepared.connection, keyspaceOf(prepared.connection, redisPrefixOf(settings)), budgets),
          },
        },
      });
    }
    if (settings.trigger) {
      await scope.register(triggerRoutes, {
        token: settings.trigger.token,
        gate: gate("trigger"),
        queues: prepared.queues,
        projects: settings.projects,
        logger,
        redisTimeoutMs: listen.redis_timeout_ms,
        activation: prepared.activation
          ? {
              queue: prepared.activation.queue,
              client: prepared.activation.runtime.client,
              offerKey: prepared.activation.runtime.activation.offers.key,
            }
          : undefined,
        projectLocales: (project, recheck) => prepared.projectLocales(project, recheck),
        jobDetails: (ref) => jobAdmin.show(ref),
        jobFinalStatus: async (project, id) => redactor.redactValue(await prepared.finalStatuses.read(project, id)),
        jsonKeys,
      });
    }
  });
  return listenHttpApp(app, listen);
}
