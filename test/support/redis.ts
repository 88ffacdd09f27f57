import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

/** The Redis the integration tests use; override with PIM_SYNC_TEST_REDIS_URL. */
export const TEST_REDIS_URL = process.env.PIM_SYNC_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export interface TestRedis {
  /** A connected client. Do not quit it yourself: `cleanup()` does. */
  readonly redis: Redis;
  /** A prefix no other test uses: `pim-sync-test:{uuid}`. Put every key under it. */
  readonly prefix: string;
  /** Every key under the prefix (SCAN, so safe on a shared server). */
  keys(): Promise<string[]>;
  /** Deletes every key under the prefix, then closes the connection. Safe to call twice. */
  cleanup(): Promise<void>;
}

/** Escapes the glob characters of a Redis MATCH pattern. */
export function escapeRedisGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}

/** Every key matching `pattern`, collected with SCAN (never KEYS). */
export async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const found = new Set<string>();
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    for (const key of batch) found.add(key);
    cursor = next;
  } while (cursor !== "0");
  return [...found];
}

/**
 * Connects to the test Redis and hands out a fresh key prefix, so tests can run side by side on
 * one server and clean up only what they wrote. Fails fast (no endless reconnecting) when Redis
 * is not running.
 */
export async function createTestRedis(options: { readonly url?: string } = {}): Promise<TestRedis> {
  const url = options.url ?? TEST_REDIS_URL;
  const redis = await connect(url);
  const prefix = `pim-sync-test:${randomUUID()}`;
  const pattern = `${escapeRedisGlob(prefix)}*`;
  let cleaned = false;

  async function deleteKeys(client: Redis): Promise<void> {
    const keys = await scanKeys(client, pattern);
    for (let i = 0; i < keys.length; i += 500) await client.del(...keys.slice(i, i + 500));
  }

  return {
    redis,
    prefix,
    keys: () => scanKeys(redis, pattern),
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      try {
        await deleteKeys(redis);
      } catch {
        // The code under test may have closed the connection (a store that owns it): clean up
        // through a fresh one.
        const spare = await connect(url);
        try {
          await deleteKeys(spare);
        } finally {
          await spare.quit().catch(() => spare.disconnect());
        }
      }
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

async function connect(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => (times > 3 ? null : 100 * times),
  });
  try {
    await redis.connect();
  } catch (cause) {
    redis.disconnect();
    throw new Error(`cannot connect to the test Redis at ${url}: ${(cause as Error).message}`, { cause });
  }
  return redis;
}
