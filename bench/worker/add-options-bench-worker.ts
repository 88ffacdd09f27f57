/**
 * What both add-options scenarios run on: the benchmark's Redis prefix, a producer connection
 * with the project's queues (the calls behind the trigger route), and an in-process worker
 * (built by `createApp`) allowed to add options to the scenario's attributes, started when the scenario
 * is ready to time it.
 */
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { createBullmqConnection } from "../../src/jobs/queues/create-bullmq-connection.js";
import { createJobQueues, type JobQueues } from "../../src/jobs/queues/job-queues.js";
import { createApp, type App } from "../../src/app/create-app.js";
import { startWorkerApp } from "../../src/app/start-worker-app.js";
import { createLogger } from "../../src/infra/log/create-logger.js";
import type { Settings } from "../../src/settings/settings-schema.js";
import { BENCH_PROJECT } from "../catalog/generate-catalog.js";
import type { ScenarioContext } from "../scenarios/scenario.js";
import { openBenchRedis, type BenchRedis } from "./bench-redis.js";
import { benchWorkerSettings } from "./bench-worker-settings.js";
import { redactorOfSettings } from "../../src/infra/secrets/redactor-of-settings.js";

/** As between syncs: the simulators' one-second windows still hold the previous run's requests. */
const SETTLE_MS = 1_500;
/** How long the PIM may take to show an added option: it shows it at once in the simulator. */
const VISIBILITY_DELAY_MS = 100;

export interface AddOptionsBenchWorker {
  readonly bench: BenchRedis;
  readonly settings: Settings;
  /** The producer's queues: enqueue here. */
  readonly queues: JobQueues;
  /** Starts the worker; resolves with how long its start took, in ms. */
  startWorker(): Promise<number>;
  close(): Promise<void>;
}

/** Throws when the benchmark's Redis cannot be reached (the scenario reports `null` with a note). */
export async function openAddOptionsBenchWorker(
  context: ScenarioContext,
  allowedAttributes: readonly string[],
): Promise<AddOptionsBenchWorker> {
  const { redisUrl } = context.worker;
  const bench = await openBenchRedis(redisUrl);
  const producer = createBullmqConnection(redisUrl, "producer");
  const settings = benchWorkerSettings({
    redisUrl,
    prefix: bench.prefix,
    project: BENCH_PROJECT,
    pimUrl: context.pim.url,
    serviceUrl: context.service.url,
    allowedAttributes,
    addOptions: { visibility_delay_ms: VISIBILITY_DELAY_MS },
  });
  const queues = createJobQueues({ connection: producer, prefix: bench.prefix, projects: [BENCH_PROJECT], retention: settings.worker });
  let app: App | null = null;
  await sleep(SETTLE_MS);
  return {
    bench,
    settings,
    queues,
    async startWorker() {
      const startedAt = performance.now();
      app = createApp(settings, {
        logger: createLogger({ level: settings.log_level, redactor: redactorOfSettings(settings) }),
        role: "worker",
      });
      await startWorkerApp(app);
      return performance.now() - startedAt;
    },
    async close() {
      await queues.close().catch(() => undefined);
      await app?.stop().catch(() => undefined);
      await producer.quit().catch(() => producer.disconnect());
      await bench.cleanup();
    },
  };
}
