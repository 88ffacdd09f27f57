import type { RedisClient } from "../../infra/redis/redis-client.js";
import type { Logger } from "pino";
import type { ActivationRuntime } from "../../features/activation/activation-runtime.js";
import { resolvePullConnections } from "../../features/activation/resolve-pull-connections.js";
import { sinkOf } from "../../features/activation/sink-of.js";
import type { ConcurrencyLimiter } from "../../infra/http/concurrency-limiter.js";
import type { Settings } from "../../settings/settings-schema.js";
import { ACTIVATION_QUEUE, type ActivationQueue } from "../queues/activation-queue.js";
import { keyspaceOf } from "../../infra/redis/keyspace.js";
import { createJobCancellation } from "./job-cancellation.js";
import type { JobObserver } from "./job-observer.js";
import { createJobProcessor } from "./create-job-processor.js";
import { activationQueueBinding } from "./activation-queue-binding.js";
import type { JobCatalog } from "../catalog/job-catalog-of.js";
import { startQueueWorker } from "./start-queue-worker.js";
import { ACTIVATION_SCHEDULER_PREFIX, upsertActivationSchedules } from "../schedules/upsert-activation-schedules.js";
import type { OrderSink } from "../../features/activation/order-sink.js";
import type { WorkerResources } from "./worker-resources.js";

/** The Activation queue and runtime, the app's (made once, released by the app). */
export interface AppActivationParts {
  readonly queue: ActivationQueue;
  readonly runtime: ActivationRuntime;
}

/** What the Activation side needs before Redis answers: the app's queue and runtime, and its sink (nothing sent yet). */
export interface ActivationParts extends AppActivationParts {
  readonly sink: OrderSink;
}

export interface RunningActivationWorker {
  readonly queue: ActivationQueue;
  readonly runtime: ActivationRuntime;
  /**
   * Resolves the connections to pull and writes their schedules: the last step of a worker's
   * start (see start-worker.ts), so that a worker that fails to start leaves the fleet's as they were.
   */
  upsertSchedules(): Promise<void>;
  /** Closes the BullMQ worker: lets the active job finish, unless `force`. */
  closeWorker(force: boolean): Promise<void>;
  cancelAll(reason: string): void;
  /** Restores the queue's global concurrency of 1 and its pull schedules when Redis lost or changed them. */
  restoreSafety(warn: (what: string, details?: Readonly<Record<string, unknown>>) => void): Promise<void>;
}

/**
 * The order sink beside the app's Activation queue and runtime, made without waiting for Redis
 * and recorded in `resources` (released after the worker's jobs, which use it).
 */
export function prepareActivation(args: {
  readonly settings: Settings;
  readonly logger: Logger;
  readonly resources: WorkerResources;
  readonly parts: AppActivationParts;
}): ActivationParts {
  const activation = args.settings.activation;
  if (!activation) throw new Error("the activation worker needs `activation` in the config");
  const sink = sinkOf(activation.orders.sink, args.settings, args.logger);
  args.resources.push("Activation order sink", () => sink.close());
  return { ...args.parts, sink };
}

/**
 * The worker side of the Activation jobs: the `activation` queue (global concurrency 1, see
 * activation-queue.ts), its schedules, and a BullMQ worker taking one job at a time, sharing the
 * process' job slots with the project queues.
 */
export async function startActivationWorker(args: {
  readonly settings: Settings;
  readonly logger: Logger;
  readonly connection: RedisClient;
  readonly parts: ActivationParts;
  readonly slots: ConcurrencyLimiter;
  /** Errors of the worker (connection failures during a Redis outage). */
  readonly onError?: (source: string) => (error: Error) => void;
  /** Told how each run ended (the worker's metrics). */
  readonly observer?: JobObserver | undefined;
  /** The catalog's list, or in a test the list with an entry of its own. */
  readonly catalog?: JobCatalog;
}): Promise<RunningActivationWorker> {
  const { settings } = args;
  const activation = settings.activation;
  const prefix = settings.redis?.prefix;
  if (!activation || prefix === undefined) throw new Error("the activation worker needs `activation` and `redis` in the config");
  const log = args.logger.child({ queue: ACTIVATION_QUEUE });
  const { queue, runtime, sink } = args.parts;
  await queue.enforceOneAtATime();
  let scheduled: readonly string[] = [];

  // Its own jobs' controllers (see job-cancellation.ts): the processor takes no BullMQ signal.
  const cancellation = createJobCancellation();
  const processor = createJobProcessor({
    binding: activationQueueBinding({ runtime, sink }),
    settings,
    logger: args.logger,
    observer: args.observer,
    cancellation,
    infra: {
      redis: args.connection,
      prefix,
      keyspace: keyspaceOf(args.connection, prefix),
      settings,
      queueFor: () => {
        throw new Error("the Activation worker runs no project queue");
      },
    },
    ...(args.catalog ? { catalog: args.catalog } : {}),
  });

  const worker = startQueueWorker({
    queue: keyspaceOf(args.connection, prefix).activationQueue,
    processor,
    slots: args.slots,
    connection: args.connection,
    prefix,
    settings: settings.worker,
    logger: args.logger,
    onError: args.onError ? args.onError("activation worker") : (error) => log.error({ err: error }, "worker error"),
  });

  return {
    queue,
    runtime,
    async upsertSchedules() {
      try {
        const connections = activation.orders.schedule === undefined ? [] : await resolvePullConnections(activation, runtime.client);
        await upsertActivationSchedules({
          redis: args.connection,
          prefix,
          queue,
          cron: activation.orders.schedule,
          connections,
          logger: log,
        });
        scheduled = connections;
      } catch (error) {
        // The API may be down at start: keep the schedules as they are (the last worker's) and go on.
        log.error({ err: error }, "could not resolve the connections to pull; activation schedules left as they were");
      }
    },
    closeWorker: (force) => worker.close(force),
    cancelAll: (reason) => cancellation.cancelAll(reason),
    async restoreSafety(warn) {
      if ((await queue.queue.getGlobalConcurrency()) !== 1) {
        await queue.enforceOneAtATime();
        warn("activation queue global concurrency was missing; set to 1 again");
      }
      const cron = activation.orders.schedule;
      if (cron === undefined || scheduled.length === 0) return;
      const present = new Map((await queue.queue.getJobSchedulers(0, -1)).map((scheduler) => [scheduler.key, scheduler.pattern ?? null]));
      const missing = scheduled.filter((connection) => !present.has(`${ACTIVATION_SCHEDULER_PREFIX}${connection}`));
      const changed = scheduled.filter((connection) => {
        const pattern = present.get(`${ACTIVATION_SCHEDULER_PREFIX}${connection}`);
        return pattern !== undefined && pattern !== cron;
      });
      if (missing.length === 0 && changed.length === 0) return;
      // The config wins over whatever another worker (or a person) wrote: see docs/worker.md, Schedules.
      if (changed.length > 0)
        warn("an activation pull schedule in Redis differs from the config; replacing it", {
          connections: changed,
          found: changed.map((c) => present.get(`${ACTIVATION_SCHEDULER_PREFIX}${c}`)),
          wanted: cron,
        });
      else warn("an activation pull schedule was missing from Redis; upserting them again", { connections: missing });
      await upsertActivationSchedules({ redis: args.connection, prefix, queue, cron, connections: scheduled, logger: log });
    },
  };
}
