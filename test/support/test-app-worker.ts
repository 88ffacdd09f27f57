import type { Logger } from "pino";
import type { JobQueues } from "../../src/jobs/queues/job-queues.js";
import { startAppWorker, type AppWorker, type AppWorkerOptions } from "./app-worker.js";
import type { WorkersFixture } from "./fixtures.js";
import { configInputFor, type ConfigTargets, type TestConfigExtras } from "./process-config.js";
import { silentLogger } from "./silent-logger.js";
import { testSettings } from "./test-settings.js";

/** What an in-process worker of a test needs: the fixtures `sims`, `redis` and `workers`. */
export interface TestAppWorkerFixtures extends ConfigTargets {
  readonly workers: WorkersFixture;
}

/** What a test of in-process workers keeps for its helpers: the fixtures above and the project `queues`. */
export interface InProcessTestFixtures extends TestAppWorkerFixtures {
  readonly queues: JobQueues;
}

export type TestAppWorkerOptions = Omit<AppWorkerOptions, "settings" | "logger"> & { readonly logger?: Logger };

/**
 * `startAppWorker` on a test config against the simulators and the test Redis (`extras` gives
 * the rest: its listener, tokens, project settings), kept by `workers` so that it is stopped
 * after the test; it logs nothing unless `options.logger` says where. Its settings are
 * `worker.app.settings`.
 */
export async function startTestAppWorker(
  fixtures: TestAppWorkerFixtures,
  extras: TestConfigExtras,
  options: TestAppWorkerOptions = {},
): Promise<AppWorker> {
  const settings = testSettings(configInputFor(fixtures, extras));
  return fixtures.workers.keep(await startAppWorker({ ...options, settings, logger: options.logger ?? silentLogger() }));
}
