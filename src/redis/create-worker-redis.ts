import { Redis } from "ioredis";
import type { Logger } from "pino";
import type { RedisSettings } from "../settings/settings-schema.js";
import { redactRedisUrl } from "./redact-redis-url.js";
import { reconnectDelayMs, redisOptionsFor } from "./redis-options.js";

/**
 * The worker's Redis connection: it keeps reconnecting through an outage, with one structured
 * log line per attempt (its number, the backoff, the last error), never a stack trace. BullMQ's
 * duplicates of this connection (blocking reads) share the same strategy, so each logs its own
 * attempts.
 */
export function createWorkerRedis(settings: RedisSettings, logger: Logger): Redis {
  const target = redactRedisUrl(settings.url);
  let lastError: string | undefined;
  let down = false;
  const redis = new Redis(
    settings.url,
    redisOptionsFor("worker", {
      connectTimeoutMs: settings.connect_timeout_ms,
      retryDelayMs: (attempt) => {
        const delayMs = reconnectDelayMs(attempt);
        down = true;
        logger.warn({ redis: target, attempt, delayMs, err: lastError }, "Redis is not answering; reconnecting");
        return delayMs;
      },
    }),
  );
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
