import type { RedisClient } from "./redis-client.js";

/**
 * Returns `hold()`: the commands a connection writes from then until the end of the event loop's
 * current turn leave in one socket write (its socket corked, uncorked in `setImmediate`).
 * Nothing is reordered and nothing waits past the turn: Redis still runs them one after the other.
 *
 * Why: a write to a socket is a system call, and on a busy machine the dearest step of a no-op
 * job. The worker's final-status record (job-final-status-store.ts) is written when BullMQ
 * reports a job completed, in the turn in which BullMQ starts the next job and, for a job that
 * does no I/O, writes that job's completion: held, the two leave together, one write per job as
 * for a bare BullMQ worker (docs/benchmarks.md, queue overhead). A Redis Cluster client has no one
 * socket: there `hold` does nothing.
 */
export function coalesceTurnWrites(redis: RedisClient): () => void {
  let held = false;
  return () => {
    if (held || !("stream" in redis)) return;
    // Undefined until the connection first connects (commands wait in ioredis' queue meanwhile).
    const stream = redis.stream as typeof redis.stream | undefined;
    if (stream === undefined) return;
    held = true;
    stream.cork();
    setImmediate(() => {
      held = false;
      stream.uncork();
    });
  };
}
