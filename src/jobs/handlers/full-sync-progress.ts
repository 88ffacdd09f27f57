import { keyspaceOf } from "../../infra/redis/keyspace.js";
import type { RedisClient } from "../../infra/redis/redis-client.js";

/**
 * Which collections a `--full` sync job has already replaced, kept per job id across its
 * attempts (a retry, a delay for Retry-After, a replay with `jobs retry`), so the next attempt
 * sends only the difference for those: their state is exactly what that replace wrote. Kept a
 * day at most after the last write, and dropped when the job succeeds.
 */
export interface FullSyncProgress {
  replaced(project: number, jobId: string): Promise<Set<string>>;
  record(project: number, jobId: string, collection: string): Promise<void>;
  clear(project: number, jobId: string): Promise<void>;
}

const KEEP_MS = 24 * 60 * 60_000;

export function createFullSyncProgress(redis: RedisClient, prefix: string): FullSyncProgress {
  const keyspace = keyspaceOf(redis, prefix);
  const keyOf = (project: number, jobId: string): string => keyspace.projectKey(project, "full-sync", jobId);
  return {
    async replaced(project, jobId) {
      return new Set(await redis.smembers(keyOf(project, jobId)));
    },
    async record(project, jobId, collection) {
      const key = keyOf(project, jobId);
      await redis.multi().sadd(key, collection).pexpire(key, KEEP_MS).exec();
    },
    async clear(project, jobId) {
      await redis.del(keyOf(project, jobId));
    },
  };
}
