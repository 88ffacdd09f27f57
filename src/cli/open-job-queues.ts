import type { App } from "../app/create-app.js";
import type { ActivationQueue } from "../jobs/queues/activation-queue.js";
import type { JobQueues } from "../jobs/queues/job-queues.js";
import { describeRedisTarget } from "../infra/redis/redis-target.js";
import { isRedisConnectionFailure, RedisUnavailableError } from "../infra/redis/redis-unavailable-error.js";
import { UsageError } from "./usage-error.js";

export interface OpenJobQueues {
  readonly queues: JobQueues;
  /** The Activation queue, when configured, so that jobs list/show/retry see its jobs too. */
  readonly activation: ActivationQueue | null;
  /** Runs `work` on the queues; a Redis that went away meanwhile becomes a RedisUnavailableError. */
  use<T>(work: (queues: JobQueues) => Promise<T>): Promise<T>;
}

/**
 * The app's queues, for commands that enqueue or inspect jobs; they need `redis` in the config
 * (a usage error otherwise). Fails with a RedisUnavailableError when Redis does not answer within
 * `redis.connect_timeout_ms`. The app closes them when it stops.
 */
export async function openJobQueues(app: App, help: string): Promise<OpenJobQueues> {
  const redisSettings = app.settings.redis;
  if (!redisSettings) throw new UsageError("this command needs `redis` in the config (jobs live in Redis)", help);
  const queues = await app.jobQueues();
  const activation = await app.activationQueue();
  return {
    queues,
    activation,
    async use(work) {
      try {
        return await work(queues);
      } catch (error) {
        if (error instanceof Error && isRedisConnectionFailure(error))
          throw new RedisUnavailableError(describeRedisTarget(redisSettings), error.message, { cause: error });
        throw error;
      }
    },
  };
}
