/**
 * What a prefix holds in Redis: its keys and their bytes (`MEMORY USAGE … SAMPLES 0`, every
 * element counted, not sampled), by family (key-family.ts). SCAN, never KEYS: the server may be shared.
 */
import type { Redis } from "ioredis";
import { escapeRedisGlob } from "../worker/bench-redis.js";
import { familyOfKey, KEY_FAMILIES, type KeyFamily } from "./key-family.js";

export interface FamilyFootprint {
  readonly keys: number;
  readonly bytes: number;
}

export interface RedisFootprint {
  readonly keys: number;
  readonly bytes: number;
  readonly families: Readonly<Record<KeyFamily, FamilyFootprint>>;
}

export async function measureRedisFootprint(redis: Redis, prefix: string): Promise<RedisFootprint> {
  const families = Object.fromEntries(KEY_FAMILIES.map((family) => [family, { keys: 0, bytes: 0 }])) as Record<
    KeyFamily,
    { keys: number; bytes: number }
  >;
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${escapeRedisGlob(prefix)}:*`, "COUNT", 1000);
    cursor = next;
    const pipeline = redis.pipeline();
    for (const key of keys) pipeline.call("MEMORY", "USAGE", key, "SAMPLES", "0");
    const answers = (await pipeline.exec()) ?? [];
    keys.forEach((key, index) => {
      const bytes = Number(answers[index]?.[1] ?? 0);
      // Null: expired between the SCAN and the MEMORY USAGE.
      if (!Number.isFinite(bytes) || bytes === 0) return;
      const family = families[familyOfKey(prefix, key)];
      family.keys += 1;
      family.bytes += bytes;
    });
  } while (cursor !== "0");
  const all = Object.values(families);
  return {
    keys: all.reduce((sum, family) => sum + family.keys, 0),
    bytes: all.reduce((sum, family) => sum + family.bytes, 0),
    families,
  };
}

/** `after` − `before`, family by family. */
export function footprintDelta(before: RedisFootprint, after: RedisFootprint): RedisFootprint {
  const families = Object.fromEntries(
    KEY_FAMILIES.map((family) => [
      family,
      {
        keys: after.families[family].keys - before.families[family].keys,
        bytes: after.families[family].bytes - before.families[family].bytes,
      },
    ]),
  ) as Record<KeyFamily, FamilyFootprint>;
  return { keys: after.keys - before.keys, bytes: after.bytes - before.bytes, families };
}
