import type { RedisClient } from "../redis/redis-client.js";
import { closeRedis } from "../redis/close-redis.js";
import { connectCommandRedis } from "../redis/connect-command-redis.js";
import type { Settings } from "../settings/settings-schema.js";
import { createProjectLock, describeHolder } from "../state/project-lock.js";

export interface LockedRun {
  /** The connection holding the lock, for the state store (absent without `redis`). */
  readonly redis?: RedisClient;
  /** Aborted when the caller's signal is, or when the lock is lost. */
  readonly signal?: AbortSignal;
}

/**
 * Runs a `--once` command's writes under the project's lock, the one the worker takes around
 * each job: a `--once` run and a worker job of the same project never interleave on its state.
 * While a job holds it, the command is refused at once (ProjectBusy: exit 1, nothing written)
 * rather than left waiting behind a sync that may take long. Without `redis` the state is in
 * files no worker uses, and there is no lock to take.
 */
export async function withProjectLock<T>(
  settings: Settings,
  project: number,
  what: string,
  signal: AbortSignal | undefined,
  run: (locked: LockedRun) => Promise<T>,
): Promise<T> {
  if (!settings.redis) return run(signal ? { signal } : {});
  // Bounded by redis.connect_timeout_ms: a Redis that is away ends the command with one line.
  const redis = await connectCommandRedis(settings.redis, signal);
  try {
    const lock = createProjectLock(redis, settings.redis.prefix, { ttlMs: settings.worker.lock_duration_ms });
    const lease = await lock.tryAcquire(project, describeHolder(what));
    try {
      return await run({ redis, signal: signal ? AbortSignal.any([signal, lease.signal]) : lease.signal });
    } finally {
      await lease.release();
    }
  } finally {
    await closeRedis(redis);
  }
}
