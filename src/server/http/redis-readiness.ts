import type { RedisClient } from "../../infra/redis/redis-client.js";
import { withRedisDeadline } from "./redis-deadline.js";

/** Why Redis cannot serve the worker now, or null when it answers a PING within `timeoutMs`. */
export async function redisNotReadyReason(connection: RedisClient, timeoutMs: number): Promise<string | null> {
  try {
    const reply = await withRedisDeadline(timeoutMs, connection.ping());
    return reply === "PONG" ? null : `redis: answered PING with ${reply}`;
  } catch (error) {
    return `redis: ${error instanceof Error ? error.message : String(error)}`;
  }
}
