import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { RedisClient } from "../../infra/redis/redis-client.js";

const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * Runs `work` while holding a short Redis lock (SET NX PX, released compare-and-delete, so a
 * holder never frees someone else's lock). Waits for the lock up to `waitMs`; the lock expires
 * after `ttlMs` if its holder dies, so `work` must be much shorter than that.
 */
export async function withRedisLock<T>(
  redis: RedisClient,
  key: string,
  timing: { readonly ttlMs: number; readonly waitMs: number },
  work: () => Promise<T>,
): Promise<T> {
  const owner = randomUUID();
  const deadline = Date.now() + timing.waitMs;
  while (!(await acquire(redis, key, owner, timing.ttlMs))) {
    if (Date.now() >= deadline) throw new Error(`timed out after ${timing.waitMs} ms waiting for the lock ${key}`);
    await sleep(5 + Math.floor(Math.random() * 20));
  }
  return holding(redis, key, owner, work);
}

/**
 * Runs `work` holding the same kind of lock, if it is free: undefined, without waiting, when
 * another process holds it (for work that one process does for all, such as upserting schedules).
 */
export async function withRedisLockIfFree<T>(
  redis: RedisClient,
  key: string,
  ttlMs: number,
  work: () => Promise<T>,
): Promise<T | undefined> {
  const owner = randomUUID();
  if (!(await acquire(redis, key, owner, ttlMs))) return undefined;
  return holding(redis, key, owner, work);
}

async function acquire(redis: RedisClient, key: string, owner: string, ttlMs: number): Promise<boolean> {
  return (await redis.set(key, owner, "PX", ttlMs, "NX")) === "OK";
}

async function holding<T>(redis: RedisClient, key: string, owner: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    await redis.eval(RELEASE, 1, key, owner);
  }
}
