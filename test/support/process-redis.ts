import { createTestRedis, escapeRedisGlob, scanKeys, type TestRedis } from "./redis.js";

/**
 * A TestRedis whose prefix a config file accepts: `redis.prefix` allows letters, digits, '.',
 * '_' and '-' only, and createTestRedis' prefix (`pim-sync-test:{uuid}`) has a colon. Same
 * uniqueness (the uuid), written `pim-sync-test.{uuid}`; cleanup removes every key under it.
 */
export async function createConfigSafeTestRedis(): Promise<TestRedis> {
  const base = await createTestRedis();
  const prefix = base.prefix.replace(/:/g, ".");
  const pattern = `${escapeRedisGlob(prefix)}*`;
  let cleaned = false;
  return {
    redis: base.redis,
    prefix,
    keys: () => scanKeys(base.redis, pattern),
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      try {
        const keys = await scanKeys(base.redis, pattern);
        for (let i = 0; i < keys.length; i += 500) await base.redis.del(...keys.slice(i, i + 500));
      } finally {
        await base.cleanup();
      }
    },
  };
}
