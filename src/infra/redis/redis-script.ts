import { createHash } from "node:crypto";
import type { RedisClient } from "./redis-client.js";

export type RedisScript = (redis: RedisClient, keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

/**
 * A Lua script called by its SHA1 (EVALSHA). EVAL would send the whole script and have Redis
 * hash it on every call: for the project lock, taken and released around every job, that was a
 * tenth of a no-op job's CPU (docs/benchmarks.md, queue overhead). The script is sent whole only when
 * Redis does not know it (a restarted Redis, or SCRIPT FLUSH), and then cached again.
 */
export function redisScript(source: string): RedisScript {
  const sha = createHash("sha1").update(source).digest("hex");
  return async (redis, keys, args) => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return redis.eval(source, keys.length, ...keys, ...args);
    }
  };
}
