import { Redis } from "ioredis";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import { openRedisClient } from "../../infra/redis/open-redis-client.js";
import { reconnectDelayMs, redisOptionsFor } from "../../infra/redis/redis-options.js";

/**
 * A connection for tests and benchmarks that manage Redis themselves, with the same options as
 * the product's (src/infra/redis/redis-options.ts). The CLI and the worker use
 * `connectCommandRedis` and `createWorkerRedis`, which add the connect deadline and the
 * reconnect log.
 */
export function createBullmqConnection(url: string, role: "worker" | "producer"): Redis {
  return new Redis(
    url,
    redisOptionsFor(role === "worker" ? "worker" : "command", { connectTimeoutMs: 5_000, retryDelayMs: reconnectDelayMs }),
  );
}

/** The same for a Redis Cluster reached through `nodes` (redis:// URLs), as `redis.cluster` opens it. */
export function createBullmqClusterConnection(nodes: readonly string[], role: "worker" | "producer"): RedisClient {
  const client = openRedisClient(
    { cluster: { nodes: [...nodes], failover_wait_ms: 30_000 }, prefix: "pim-sync", connect_timeout_ms: 5_000 },
    role === "worker" ? "worker" : "command",
    { retryDelayMs: reconnectDelayMs },
  );
  // The command role connects lazily; a test's producer should not have to.
  if (client.status === "wait") void client.connect().catch(() => undefined);
  return client;
}
