import { Redis } from "ioredis";

/**
 * Workers block on Redis and must wait out a disconnection rather than fail the command
 * (`maxRetriesPerRequest: null`, BullMQ's requirement); short-lived producers (CLI) fail fast.
 */
export function createBullmqConnection(url: string, role: "worker" | "producer"): Redis {
  return new Redis(url, role === "worker" ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 5_000 });
}
