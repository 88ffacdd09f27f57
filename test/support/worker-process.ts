import type { JobQueues } from "../../src/jobs/queues/job-queues.js";
import type { CliFixture } from "./fixtures.js";
import { servingUrlOf, type CliProcess } from "./process-cli.js";
import { configInputFor, writeTestConfig, type ConfigTargets, type TestConfigExtras } from "./process-config.js";

/** What a worker process of a test needs: the fixtures `cli`, `sims`, `redis` and `tempDir`. */
export interface WorkerProcessFixtures extends ConfigTargets {
  readonly cli: CliFixture;
  readonly tempDir: string;
}

/** What a test of worker processes keeps for its helpers: the fixtures above and the project `queues`. */
export interface ProcessTestFixtures extends WorkerProcessFixtures {
  readonly queues: JobQueues;
}

export interface WorkerProcess {
  readonly worker: CliProcess;
  /** The base URL its HTTP listener serves on (bound as 0, read from its log). */
  readonly url: string;
  /** The config file it runs on (in `tempDir`), for a second process or a command on the same config. */
  readonly configPath: string;
}

/**
 * A test config for a worker process, written into `tempDir`, against the simulators and the
 * test Redis; it logs at `info` (the lines a test reads) unless `extras` says otherwise.
 */
export function writeWorkerConfig(
  fixtures: ConfigTargets & { readonly tempDir: string },
  extras: TestConfigExtras = {},
  fileName?: string,
): Promise<string> {
  return writeTestConfig(fixtures.tempDir, configInputFor(fixtures, { logLevel: "info", ...extras }), fileName);
}

/**
 * `pim-sync worker --config <file>` on `writeWorkerConfig`'s config, resolved once it serves its routes (the listener's URL is read
 * from its log); `extras` gives its listener (`server` or `trigger`).
 */
export async function startWorkerCommand(
  fixtures: WorkerProcessFixtures,
  extras: TestConfigExtras = {},
  options: { readonly env?: Readonly<Record<string, string>>; readonly timeoutMs?: number } = {},
): Promise<WorkerProcess> {
  const configPath = await writeWorkerConfig(fixtures, extras);
  const worker = fixtures.cli.spawn(["worker", "--config", configPath], options.env ? { env: options.env } : {});
  return { worker, url: await servingUrlOf(worker, options.timeoutMs), configPath };
}
