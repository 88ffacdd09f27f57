import type { Logger } from "pino";
import type { RedisSettings } from "../settings/settings-schema.js";
import { openRedisClient } from "./open-redis-client.js";
import type { RedisClient } from "./redis-client.js";
import { reconnectDelayMs } from "./redis-options.js";
import { describeRedisTarget } from "./redis-target.js";

/**
 * The worker's Redis connection: it keeps reconnecting through an outage, with one structured
 * log line per attempt (its number, the backoff, the last error), never a stack trace. BullMQ's
 * duplicates of this connection (blocking reads) share the same strategy, so each logs its own
 * attempts.
 */
export function createWorkerRedis(settings: RedisSettings, logger: Logger): RedisClient {
  const target = describeRedisTarget(settings);
  let lastError: string | undefined;
  let down = false;
  const redis = openRedisClient(settings, "worker", {
    retryDelayMs: (attempt) => {
      const delayMs = reconnectDelayMs(attempt);
      down = true;
      logger.warn({ redis: target, attempt, delayMs, err: lastError }, "Redis is not answering; reconnecting");
      return delayMs;
    },
  });
  redis.on("error", (error: Error) => {
    lastError = error.message;
  });
  redis.on("ready", () => {
    if (!down) return;
    down = false;
    lastError = undefined;
    logger.info({ redis: target }, "Redis answers again");
  });
  return redis;
}
