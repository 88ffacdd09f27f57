import { QueueKeys, RedisConnection, RedisQueueBackend, type BackendFactory } from "bullmq";
import type { RedisClient } from "../../infra/redis/redis-client.js";

/** One BullMQ connection over the process' Redis client, shared by every Queue and Worker made with `factory`. */
export interface SharedQueueBackend {
  /** Given to a Queue or a Worker: its backend uses the shared connection, which it does not own. */
  readonly factory: BackendFactory<RedisQueueBackend>;
  /** Detaches the shared connection from the client (which stays open: its owner closes it). */
  close(): Promise<void>;
}

/**
 * BullMQ wraps the client it is given in a connection of its own for every Queue and every
 * Worker, and each such connection asks the server for its version (an INFO, whose answer is
 * parsed) and registers BullMQ's scripts when it starts: a process of 1,000 projects sent 2,000
 * INFOs at start, which was most of the queues' share of its start-up CPU. The connection holds
 * nothing per queue (keys and options stay in each backend), so one serves them all: one INFO
 * and one registration per process, whatever the number of projects.
 *
 * Errors of the client reach `onError` once, not once per queue.
 */
export function createSharedQueueBackend(
  connection: RedisClient,
  prefix: string,
  onError: (error: Error) => void = () => undefined,
): SharedQueueBackend {
  // `shared`: BullMQ neither quits nor disconnects the client; `blocking: false`: no blocking
  // command runs on it (the Workers' waits are answered by queue-wake-ups.ts).
  const shared = new RedisConnection(connection, { shared: true, blocking: false });
  shared.on("error", onError);
  const keys = new QueueKeys(prefix);
  // BullMQ's own factory reads the prefix from the options; here every queue is under `prefix`.
  const factory: BackendFactory<RedisQueueBackend> = (name, opts) =>
    // Not the owner: closing a Queue or a Worker leaves the shared connection to the others.
    new RedisQueueBackend(
      shared,
      name,
      keys.getKeys(name),
      (type) => keys.toKey(name, type),
      Object.assign({}, opts, { prefix }),
      undefined,
      false,
    );
  return { factory, close: () => shared.close() };
}
