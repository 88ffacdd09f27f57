/**
 * What the large fleet reads of its own redis-server: memory and CPU from `INFO`, so that the
 * Redis a fleet needs (and whether one Redis becomes the bound) is measured, not guessed.
 */
import type { Redis } from "ioredis";

export interface RedisUsage {
  readonly usedMemoryBytes: number;
  readonly usedMemoryPeakBytes: number;
  /** used_cpu_sys + used_cpu_user: the server's CPU seconds since it started. */
  readonly cpuSeconds: number;
  readonly connectedClients: number;
  readonly totalCommands: number;
}

/** `INFO`'s `key:value` lines as a map (sections and blank lines skipped). */
export function parseRedisInfo(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (line === "" || line.startsWith("#")) continue;
    const colon = line.indexOf(":");
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return fields;
}

export function redisUsageOf(info: string): RedisUsage {
  const fields = parseRedisInfo(info);
  const numberOf = (key: string): number => {
    const value = Number(fields.get(key));
    if (!Number.isFinite(value)) throw new Error(`INFO has no number for ${key}`);
    return value;
  };
  return {
    usedMemoryBytes: numberOf("used_memory"),
    usedMemoryPeakBytes: numberOf("used_memory_peak"),
    cpuSeconds: numberOf("used_cpu_sys") + numberOf("used_cpu_user"),
    connectedClients: numberOf("connected_clients"),
    totalCommands: numberOf("total_commands_processed"),
  };
}

export async function readRedisUsage(redis: Redis): Promise<RedisUsage> {
  return redisUsageOf(await redis.info());
}
