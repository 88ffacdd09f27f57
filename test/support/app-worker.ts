import type { Logger } from "pino";
import { createApp, type App } from "../../src/app/create-app.js";
import { startWorkerApp } from "../../src/app/start-worker-app.js";
import type { JobCatalog } from "../../src/jobs/catalog/job-catalog-of.js";
import type { JobHandlers } from "../../src/jobs/catalog/job-handlers.js";
import type { RunningWorker } from "../../src/jobs/worker/start-worker.js";
import type { JsonKeyStyle } from "../../src/core/json/json-key-style.js";
import type { RedisClient } from "../../src/infra/redis/redis-client.js";
import type { Settings } from "../../src/settings/settings-schema.js";

/** A worker started in the test's process the way the worker command starts it: through `createApp`. */
export interface AppWorker extends RunningWorker {
  /** The app whose `stop()` is the worker's stop (its one release stack). */
  readonly app: App;
  /** The HTTP server's base URL, when `server` (or `trigger`) is configured. */
  readonly serverUrl: string | null;
  /** The server's URL when `trigger` is configured. */
  readonly triggerUrl: string | null;
  /** `app.stop()`: listener, jobs, queues, clients, then the Redis the app connected. */
  stop(): Promise<void>;
}

export interface AppWorkerOptions {
  readonly settings: Settings;
  readonly logger: Logger;
  /** A connected Redis the test owns (used, never closed); else the app connects the config's. */
  readonly redis?: RedisClient;
  readonly handlers?: JobHandlers;
  readonly catalog?: JobCatalog;
  readonly jsonKeys?: JsonKeyStyle;
}

/**
 * `createApp(settings, { role: "worker" })`, started, resolved once its worker has started (its
 * HTTP listener open, its BullMQ workers running, its schedules written) by `startWorkerApp`, as
 * the worker command starts it; a start that fails stops the app before throwing.
 */
export async function startAppWorker(options: AppWorkerOptions): Promise<AppWorker> {
  const { settings, logger, redis, handlers, catalog, jsonKeys } = options;
  const app = createApp(settings, {
    logger,
    role: "worker",
    ...(redis ? { redis } : {}),
    worker: { ...(handlers ? { handlers } : {}), ...(catalog ? { catalog } : {}), ...(jsonKeys ? { jsonKeys } : {}) },
  });
  const running = await startWorkerApp(app);
  if (running === null) throw new Error("the worker did not start");
  const { serverUrl, triggerUrl } = app.worker();
  return { ...running, app, serverUrl, triggerUrl, stop: () => app.stop() };
}

/** The worker's HTTP server URL, for a client made before the worker starts; throws while there is none. */
export function serverUrlOf(worker: AppWorker | undefined): string {
  if (!worker?.serverUrl) throw new Error("the worker has no HTTP server");
  return worker.serverUrl;
}

/** The worker's trigger endpoint URL, for a client made before the worker starts; throws while there is none. */
export function triggerUrlOf(worker: AppWorker | undefined): string {
  if (!worker?.triggerUrl) throw new Error("the worker has no trigger endpoint");
  return worker.triggerUrl;
}
