import type { Logger } from "pino";
import type { ActivationQueue } from "../jobs/queues/activation-queue.js";
import type { JobCatalog } from "../jobs/catalog/job-catalog-of.js";
import type { JobQueues } from "../jobs/queues/job-queues.js";
import type { RedisClient } from "../infra/redis/redis-client.js";
import { logRedisErrors } from "../infra/redis/log-redis-errors.js";
import { redisPrefixOf } from "../settings/redis-prefix-of.js";
import type { Settings } from "../settings/settings-schema.js";
import type { ReleaseStack } from "./release-stack.js";

/** The app's queues, each made at its first use and released on the app's stack. */
export interface AppQueues {
  jobQueues(): Promise<JobQueues>;
  activationQueue(): Promise<ActivationQueue | null>;
}

/**
 * The job queues and the Activation queue of a `createApp` app, in either role: the worker's
 * report Redis' failures in its log and spread the schedules it writes; a command's see the
 * failures as their calls fail. Each is acquired once through the app's `once`.
 */
export function appQueues(args: {
  readonly settings: Settings;
  readonly logger: Logger;
  readonly worker: boolean;
  /** For benchmarks and tests: the catalog's list with entries of their own. */
  readonly catalog: JobCatalog | undefined;
  readonly stack: ReleaseStack;
  readonly once: <T>(key: string, acquire: () => Promise<T>) => Promise<T>;
  readonly requireRedis: (what: string) => Promise<RedisClient>;
}): AppQueues {
  const { settings, catalog, stack, once, requireRedis } = args;
  const queueErrors = args.worker ? logRedisErrors(args.logger) : null;

  /**
   * A queue's release. The worker's does not wait for a Redis that is away (its stop must not
   * last the outage) and otherwise waits a grace; a command's waits, and ignores the failure of a
   * queue whose Redis went away: its command has reported that outage.
   */
  async function queueRelease(connection: RedisClient, close: () => Promise<void>): Promise<() => Promise<void>> {
    if (!args.worker) return () => close().catch(() => undefined);
    const { closeQueueWithinGrace } = await import("../jobs/queues/close-queue-within-grace.js");
    return () => closeQueueWithinGrace(connection, close);
  }

  return {
    jobQueues() {
      return once("job queues", async () => {
        const connection = await requireRedis("a job queue");
        // Loaded on demand: BullMQ is for the commands that use queues.
        const { createJobQueues } = await import("../jobs/queues/job-queues.js");
        const queues = createJobQueues({
          connection,
          prefix: redisPrefixOf(settings),
          projects: settings.projects.map((p) => p.id),
          retention: settings.worker,
          retryWaitCapMs: settings.http.max_retry_after_ms,
          ...(catalog ? { catalog } : {}),
          // The worker writes the schedules, spread over this window (schedule-offset.ts).
          ...(queueErrors ? { onError: queueErrors("queue"), scheduleJitterMs: settings.worker.schedule_jitter_ms } : {}),
        });
        stack.push("job queues", await queueRelease(connection, () => queues.close()));
        return queues;
      });
    },
    activationQueue() {
      return once("Activation queue", async () => {
        if (!settings.activation) return null;
        const connection = await requireRedis("the Activation queue");
        const { createActivationQueue } = await import("../jobs/queues/activation-queue.js");
        const queue = createActivationQueue({
          connection,
          prefix: redisPrefixOf(settings),
          retention: settings.worker,
          retryWaitCapMs: settings.http.max_retry_after_ms,
          ...(catalog ? { catalog } : {}),
          ...(queueErrors ? { onError: queueErrors("activation queue") } : {}),
        });
        stack.push("Activation queue", await queueRelease(connection, () => queue.close()));
        return queue;
      });
    },
  };
}
