import type { Logger } from "pino";
import type { JsonKeyStyle } from "../core/json/json-key-style.js";
import { redactorOfSettings } from "../infra/secrets/redactor-of-settings.js";
import { createJobAdmin } from "../jobs/admin/job-admin.js";
import type { PreparedWorker, RunningWorker } from "../jobs/worker/start-worker.js";
import type { ReviewAdmin } from "../server/admin/review-admin-routes.js";
import { createAuthGate } from "../server/auth/auth-gate.js";
import { createHttpApp } from "../server/http/create-http-app.js";
import { listenHttpApp, type HttpServer } from "../server/http/listen-http-app.js";
import type { ListenSettings } from "../server/http/listen-settings.js";
import type { WorkerMetrics } from "../server/metrics/worker-metrics.js";
import type { Settings } from "../settings/settings-schema.js";
import type { StateStore } from "../stores/state/state-store.js";
import { packageVersion } from "./package-version.js";
import { HTTP_SURFACES } from "./surfaces/http-surfaces.js";
import { serveHttpSurfaces } from "./surfaces/serve-http-surfaces.js";

/** The `route` label of requests no route matched: their paths would make the label unbounded. */
const UNMATCHED_ROUTE = "unmatched";

/**
 * The HTTP server of the worker process: every surface of the table (surfaces/http-surfaces.ts)
 * on the worker's parts. Its own module, imported by worker-process.ts only when the config has a
 * listener, so that fastify and the surfaces are loaded by the workers that serve HTTP alone.
 */
export async function startHttpServer(args: {
  readonly worker: PreparedWorker;
  readonly notReadyReasons: () => Promise<readonly string[]>;
  readonly running: () => RunningWorker | null;
  readonly settings: Settings;
  readonly listen: ListenSettings;
  readonly logger: Logger;
  readonly metrics: WorkerMetrics | undefined;
  readonly jsonKeys: JsonKeyStyle;
  readonly review: ReviewAdmin;
  readonly state: StateStore;
}): Promise<HttpServer> {
  const { worker, settings, listen, logger, metrics } = args;
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
  await serveHttpSurfaces(app, HTTP_SURFACES, {
    settings,
    listen,
    logger,
    redactor,
    metrics,
    gate: (surface) => createAuthGate({ surface, limits: listen.auth_throttle, logger, observer: metrics }),
    worker,
    running: args.running,
    notReadyReasons: args.notReadyReasons,
    jobAdmin: createJobAdmin(worker.queues, { redactor, ...(worker.activation ? { activation: worker.activation.queue.queue } : {}) }),
    review: args.review,
    state: args.state,
    jsonKeys: args.jsonKeys,
  });
  return listenHttpApp(app, listen);
}
