import type { RedisClient } from "./redis/redis-client.js";
import type { Logger } from "pino";
import { startWorker, type RunningWorker } from "./jobs/start-worker.js";
import { createHttpApp } from "./server/create-http-app.js";
import { healthRoutes } from "./server/health-routes.js";
import { listenHttpApp, type HttpServer } from "./server/listen-http-app.js";
import { listenSettingsOf } from "./server/listen-settings.js";
import { redisNotReadyReason } from "./server/redis-readiness.js";
import type { Settings } from "./settings/settings-schema.js";
import { triggerRoutes } from "./trigger/trigger-routes.js";
import { adminRoutes } from "./admin/admin-routes.js";
import { createJobAdmin } from "./jobs/job-admin.js";
import { metricsRoutes } from "./metrics/metrics-routes.js";
import { createWorkerMetrics, type WorkerMetrics } from "./metrics/worker-metrics.js";
import { withRedisDeadline } from "./server/redis-deadline.js";

export interface RunningWorkerProcess extends RunningWorker {
  /** The HTTP server's base URL, when `server` (or the deprecated `trigger` host/port) is configured. */
  readonly serverUrl: string | null;
  /** Where the trigger routes are served: the server's URL when `trigger` is configured. */
  readonly triggerUrl: string | null;
}

/**
 * The worker command's whole process: the job worker, and in front of it one HTTP server with
 * the health checks and, when `trigger` is configured, the trigger routes. The server is
 * composed here so that the job layer knows nothing of HTTP.
 */
export async function startWorkerProcess(args: { readonly settings: Settings; readonly logger: Logger; readonly connection?: RedisClient }): Promise<RunningWorkerProcess> {
  const { settings, logger } = args;
  const listen = listenSettingsOf(settings);
  // The queues exist once the worker started; the gauge is only read at scrape time.
  let queuesOf: RunningWorker["queues"] | null = null;
  const metrics = listen
    ? createWorkerMetrics({
        projects: settings.projects.map((project) => project.id),
        jobCounts: async (project) => {
          if (!queuesOf) return {};
          return withRedisDeadline(listen.redis_timeout_ms, queuesOf.queueFor(project).getJobCounts("waiting", "active", "delayed", "failed", "completed"));
        },
      })
    : undefined;
  const worker = await startWorker({ settings, logger, ...(args.connection ? { connection: args.connection } : {}), ...(metrics ? { observer: metrics } : {}) });
  queuesOf = worker.queues;
  let server: HttpServer | null = null;
  if (listen) {
    for (const deprecation of listen.deprecations) logger.warn({ config: deprecation }, "deprecated config key");
    try {
      server = await startServer(worker, settings, listen, logger, metrics);
    } catch (error) {
      await worker.stop();
      throw error;
    }
    logger.info({ url: server.url }, "HTTP server listening");
  }
  const serverUrl = server?.url ?? null;
  return {
    ...worker,
    serverUrl,
    triggerUrl: settings.trigger ? serverUrl : null,
    async stop() {
      // No new requests once stopping: the queues they would use are about to close.
      await server?.close();
      return worker.stop();
    },
  };
}

async function startServer(
  worker: RunningWorker,
  settings: Settings,
  listen: NonNullable<ReturnType<typeof listenSettingsOf>>,
  logger: Logger,
  metrics: WorkerMetrics | undefined,
): Promise<HttpServer> {
  const app = createHttpApp({ limits: listen, logger });
  await app.register(healthRoutes, {
    notReadyReasons: async () => {
      const redis = await redisNotReadyReason(worker.connection, listen.redis_timeout_ms);
      const stopped = worker.stoppedProjects().map((project) => `worker: project ${project}'s worker is not running`);
      return [...(redis === null ? [] : [redis]), ...stopped];
    },
  });
  if (metrics) await app.register(metricsRoutes, { registry: metrics.registry, token: listen.metrics_token });
  const jobAdmin = createJobAdmin(worker.queues, worker.activation ? { activation: worker.activation.queue.queue } : {});
  if (listen.admin) await app.register(adminRoutes, { users: listen.admin.users, admin: jobAdmin, queues: worker.queues, logger, redisTimeoutMs: listen.redis_timeout_ms });
  if (settings.trigger) {
    await app.register(triggerRoutes, {
      token: settings.trigger.token,
      queues: worker.queues,
      projects: settings.projects,
      logger,
      redisTimeoutMs: listen.redis_timeout_ms,
      activation: worker.activation ? { queue: worker.activation.queue, client: worker.activation.runtime.client } : undefined,
      projectLocales: (project, recheck) => worker.projectLocales(project, recheck),
      jobDetails: (ref) => jobAdmin.show(ref),
    });
  }
  return listenHttpApp(app, listen);
}
