import { createActivationQueue, type ActivationQueue } from "../jobs/activation-queue.js";
import { createJobQueues, type JobQueues } from "../jobs/job-queues.js";
import { closeRedis } from "../redis/close-redis.js";
import { connectCommandRedis } from "../redis/connect-command-redis.js";
import { describeRedisTarget } from "../redis/redis-target.js";
import { isRedisConnectionFailure, RedisUnavailableError } from "../redis/redis-unavailable-error.js";
import type { Settings } from "../settings/settings-schema.js";
import { UsageError } from "./usage-error.js";

export interface OpenJobQueues {
  readonly queues: JobQueues;
  /** The Activation queue, when configured, so that jobs list/show/retry see its jobs too. */
  readonly activation: ActivationQueue | null;
  /** Runs `work` on the queues; a Redis that went away meanwhile becomes a RedisUnavailableError. */
  use<T>(work: (queues: JobQueues) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The queues, for commands that enqueue or inspect jobs; they need `redis` in the config. Fails
 * with a RedisUnavailableError when Redis does not answer within `redis.connect_timeout_ms`.
 */
export async function openJobQueues(settings: Settings, help: string, signal?: AbortSignal): Promise<OpenJobQueues> {
  const redisSettings = settings.redis;
  if (!redisSettings) throw new UsageError("this command needs `redis` in the config (jobs live in Redis)", help);
  const connection = await connectCommandRedis(redisSettings, signal);
  const queues = createJobQueues({ connection, prefix: redisSettings.prefix, projects: settings.projects.map((p) => p.id), retention: settings.worker });
  const activation = settings.activation ? createActivationQueue({ connection, prefix: redisSettings.prefix, retention: settings.worker }) : null;
  return {
    queues,
    activation,
    async use(work) {
      try {
        return await work(queues);
      } catch (error) {
        if (error instanceof Error && isRedisConnectionFailure(error)) throw new RedisUnavailableError(describeRedisTarget(redisSettings), error.message, { cause: error });
        throw error;
      }
    },
    async close() {
      await queues.close().catch(() => undefined);
      await activation?.close().catch(() => undefined);
      await closeRedis(connection);
    },
  };
}
