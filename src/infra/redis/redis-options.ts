import type { RedisOptions } from "ioredis";

/**
 * The ioredis options of every connection pim-sync opens, by role (the one place they are
 * chosen):
 * - `command`: short-lived CLI commands. Reconnects only until `connectTimeoutMs` has passed
 *   since the connection was opened, and a command waits for at most one reconnect, so a Redis
 *   that is away ends the command instead of hanging it.
 * - `worker`: blocks on Redis and must outlive an outage: requests wait for the connection
 *   (`maxRetriesPerRequest: null`, BullMQ's requirement) and reconnects never stop.
 */
export function redisOptionsFor(
  role: "command" | "worker",
  args: { readonly connectTimeoutMs: number; readonly retryDelayMs: (attempt: number) => number | null },
): RedisOptions {
  const common: RedisOptions = { connectTimeout: args.connectTimeoutMs, retryStrategy: args.retryDelayMs };
  return role === "worker"
    ? { ...common, maxRetriesPerRequest: null }
    : { ...common, lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: true };
}

/** Exponential from 200 ms, doubling, capped at 5 s: how long the worker waits between reconnects. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(200 * 2 ** Math.max(0, attempt - 1), 5_000);
}
