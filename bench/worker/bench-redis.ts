/**
 * The Redis the worker scenarios use, under a key prefix of their own (`pim-sync-bench.<uuid>`,
 * which the config's prefix rule accepts), every key of which is deleted afterwards (SCAN, never
 * KEYS: the server may be shared).
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

export const DEFAULT_BENCH_REDIS_URL = "redis://127.0.0.1:6379";

export interface BenchRedis {
  readonly url: string;
  /** A prefix no one else uses, valid as the config's `redis.prefix`. */
  readonly prefix: string;
  /** A plain client for the benchmark's own reads (not for BullMQ's blocking calls). */
  readonly redis: Redis;
  /** Deletes every key under the prefix and closes the client. */
  cleanup(): Promise<void>;
}

/** Escapes the glob characters of a Redis MATCH pattern. */
export function escapeRedisGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}

/** Connects (failing fast when Redis is not there) and hands out a fresh prefix. */
export async function openBenchRedis(url: string): Promise<BenchRedis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: (times) => (times > 3 ? null : 100 * times) });
  try {
    await redis.connect();
  } catch (cause) {
    redis.disconnect();
    throw new Error(`cannot connect to Redis at ${url}: ${(cause as Error).message}`, { cause });
  }
  const prefix = `pim-sync-bench.${randomUUID()}`;
  const pattern = `${escapeRedisGlob(prefix)}*`;
  let cleaned = false;
  return {
    url,
    prefix,
    redis,
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      try {
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
          if (keys.length > 0) await redis.del(...keys);
          cursor = next;
        } while (cursor !== "0");
      } finally {
        await redis.quit().catch(() => redis.disconnect());
      }
    },
  };
}
