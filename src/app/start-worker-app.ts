import type { RunningWorker } from "../jobs/worker/start-worker.js";
import type { App } from "./create-app.js";

/**
 * The one way a worker is started, by the `worker` command and by every benchmark and test that
 * runs one in its own process: the app (made in the `worker` role) opens its listener, then its
 * worker starts once Redis answers. Resolves to the started worker, or to null when
 * `stopRequested` settles first (a signal while Redis is still away). A start that fails stops
 * the app before its error is thrown; otherwise `app.stop()` is the caller's to call.
 */
export async function startWorkerApp(app: App, stopRequested?: Promise<unknown>): Promise<RunningWorker | null> {
  try {
    await app.start();
    const started = app.worker().started;
    return stopRequested ? await Promise.race([started, stopRequested.then(() => null)]) : await started;
  } catch (error) {
    // Why the start failed is the error to report; a release failing as well is logged by stop.
    await app.stop().catch(() => undefined);
    throw error;
  }
}
