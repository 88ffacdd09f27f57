import type { Settings } from "../settings/settings-schema.js";
import { createApp, type App, type AppOptions } from "./create-app.js";

/**
 * A command's whole use of the app: built, `run`, stopped whatever happened, its logger
 * flushed last. When `run` fails, its error is the one thrown (a release that failed as well was
 * logged by `stop`); when only `stop` fails, its error is.
 */
export async function withApp<T>(settings: Settings, options: AppOptions, run: (app: App) => Promise<T>): Promise<T> {
  const app = createApp(settings, options);
  let result: T;
  try {
    result = await run(app);
  } catch (error) {
    await app.stop().catch(() => undefined);
    options.logger.flush();
    throw error;
  }
  try {
    await app.stop();
  } finally {
    options.logger.flush();
  }
  return result;
}
