import { setTimeout as sleep } from "node:timers/promises";
import type { RedisClient } from "./redis-client.js";

/**
 * QUIT politely, but never wait on a Redis that is away: a worker connection queues commands
 * while disconnected, so a QUIT would wait for the outage to end. Disconnects after `graceMs`.
 */
export async function closeRedis(redis: RedisClient, graceMs = 1_000): Promise<void> {
  if (redis.status === "end") return;
  if (redis.status !== "ready") {
    redis.disconnect();
    return;
  }
  const quitted = await Promise.race([
    redis.quit().then(
      () => true,
      () => false,
    ),
    sleep(graceMs, false, { ref: false }),
  ]);
  if (!quitted) redis.disconnect();
}
