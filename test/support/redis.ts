import { randomUUID } from "node:crypto";
import { Cluster, Redis } from "ioredis";
import type { RedisClient } from "../../src/infra/redis/redis-client.js";

/** The Redis the integration tests use; override with PIM_SYNC_TEST_REDIS_URL. */
export const TEST_REDIS_URL = process.env.PIM_SYNC_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export interface TestRedis<C extends RedisClient = Redis> {
  /** A connected client. Do not quit it yourself: `cleanup()` does. */
  readonly redis: C;
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

/**
 * Every key matching `pattern`, collected with SCAN (never KEYS). On a cluster SCAN sees one
 * node's keys only, so every master is scanned.
 */
export async function scanKeys(redis: RedisClient, pattern: string): Promise<string[]> {
  if (redis instanceof Cluster) {
    const perMaster = await Promise.all(redis.nodes("master").map((node) => scanKeys(node, pattern)));
    return perMaster.flat();
  }
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

  async function deleteKeys(client: Redis): Promise<void> {
    const keys = await scanKeys(client, pattern);
    for (let i = 0; i < keys.length; i += 500) await client.del(...keys.slice(i, i + 500));
  }

  return prefixedTestRedis(redis, prefix, pattern, async () => {
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
  });
}

/** The TestRedis over `redis` and `prefix`: `deleteKeys` runs once, however often cleanup is called, then the connection quits. */
function prefixedTestRedis<C extends Redis | Cluster>(
  redis: C,
  prefix: string,
  pattern: string,
  deleteKeys: () => Promise<void>,
): TestRedis<C> {
  let cleaned = false;
  return {
    redis,
    prefix,
    keys: () => scanKeys(redis, pattern),
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      await deleteKeys();
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

/**
 * The same for a Redis Cluster of the test's own (own-redis-cluster.ts): a fresh prefix, cleaned
 * up key by key (a DEL of several keys must stay within one slot).
 */
export async function createClusterTestRedis(nodes: readonly string[]): Promise<TestRedis<Cluster>> {
  const redis = new Cluster(
    nodes.map((node) => {
      const url = new URL(node);
      return { host: url.hostname, port: Number(url.port) };
    }),
    { lazyConnect: true, redisOptions: { maxRetriesPerRequest: 1 }, clusterRetryStrategy: (times) => (times > 3 ? null : 100 * times) },
  );
  await redis.connect();
  // Config-safe (no colon): the same prefix may go into a config file for a worker process.
  const prefix = `pim-sync-test.${randomUUID()}`;
  const pattern = `${escapeRedisGlob(prefix)}*`;
  return prefixedTestRedis(redis, prefix, pattern, async () => {
    const keys = await scanKeys(redis, pattern);
    await Promise.all(keys.map((key) => redis.del(key)));
  });
}
