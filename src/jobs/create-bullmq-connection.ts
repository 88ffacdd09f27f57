import { Redis } from "ioredis";
import { reconnectDelayMs, redisOptionsFor } from "../redis/redis-options.js";

/**
 * A connection for tests and benchmarks that manage Redis themselves, with the same options as
 * the product's (src/redis/redis-options.ts). The CLI and the worker use
 * `connectCommandRedis` and `createWorkerRedis`, which add the connect deadline and the
 * reconnect log.
 */
export function createBullmqConnection(url: string, role: "worker" | "producer"): Redis {
  return new Redis(url, redisOptionsFor(role === "worker" ? "worker" : "command", { connectTimeoutMs: 5_000, retryDelayMs: reconnectDelayMs }));
}
