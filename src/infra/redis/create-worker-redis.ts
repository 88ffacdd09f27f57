import { Cluster, type Redis } from "ioredis";
import type { Logger } from "pino";
import type { RedisSettings } from "../../settings/settings-schema.js";
import { openRedisClient } from "./open-redis-client.js";
import type { RedisClient } from "./redis-client.js";
import { reconnectDelayMs } from "./redis-options.js";
import { describeRedisTarget } from "./redis-target.js";

/**
 * The worker's Redis connection: it keeps reconnecting through an outage, with one structured
 * log line per attempt (its number, the backoff, the last error), never a stack trace.
 *
 * The line is written on this connection's own `reconnecting` event, not in the retry strategy:
 * BullMQ duplicates the connection (blocking reads), the duplicates copy the strategy but not
 * the listeners, so logging in the strategy wrote each reconnect once per copy.
 */
export function createWorkerRedis(settings: RedisSettings, logger: Logger): RedisClient {
  const target = describeRedisTarget(settings);
  let lastError: string | undefined;
  let attempt = 0;
  const redis = openRedisClient(settings, "worker", { retryDelayMs: reconnectDelayMs });
  redis.on("error", (error: Error) => {
    lastError = error.message;
  });
  // A server connection passes the delay; a cluster's passes none, and its delay is the same function's.
  redis.on("reconnecting", (delay: unknown) => {
    attempt += 1;
    const delayMs = typeof delay === "number" ? delay : reconnectDelayMs(attempt);
    logger.warn({ redis: target, attempt, delayMs, err: lastError }, "Redis is not answering; reconnecting");
  });
  // One node of a cluster gone (a master killed: its replica takes over) is no reconnect of the
  // whole connection, so nothing above says it; commands for its slots wait for the failover.
  if (redis instanceof Cluster) {
    redis.on("-node", (node: Redis) => {
      if (redis.status !== "ready") return; // closing: every node leaves
      logger.warn(
        { redis: target, node: `${node.options.host}:${node.options.port}` },
        "a Redis Cluster node is gone; its slots' commands wait for a replica to take over (redis.cluster.failover_wait_ms)",
      );
    });
  }
  redis.on("ready", () => {
    if (attempt === 0) return;
    attempt = 0;
    lastError = undefined;
    logger.info({ redis: target }, "Redis answers again");
  });
  return redis;
}
