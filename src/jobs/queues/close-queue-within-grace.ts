import type { RedisClient } from "../../infra/redis/redis-client.js";
import { closedWithin } from "./closed-within.js";

/** Closing a queue (or a BullMQ worker) waits on Redis; during an outage it would wait for the outage to end. */
export const QUEUE_CLOSE_GRACE_MS = 2_000;

/**
 * A worker's queue closed at its stop. Closing waits on Redis: while Redis is away it would wait
 * for the outage to end, so it is not waited for then, and otherwise only for
 * QUEUE_CLOSE_GRACE_MS. Its failure is the outage the connection has already logged, not a
 * resource left behind (the connection, closed after it, ends whatever it still waits for).
 */
export async function closeQueueWithinGrace(connection: RedisClient, close: () => Promise<unknown>): Promise<void> {
  const closing = close().then(
    () => undefined,
    () => undefined,
  );
  if (connection.status !== "ready") return;
  await closedWithin(closing, QUEUE_CLOSE_GRACE_MS);
}
