import type { RedisClient } from "../../infra/redis/redis-client.js";
import { redisPrefixOf } from "../../settings/redis-prefix-of.js";
import type { Settings } from "../../settings/settings-schema.js";
import { createFileStateStore } from "./file-state-store.js";
import { createRedisStateStore } from "./redis-state-store.js";
import type { StateStore } from "./state-store.js";

/**
 * What pim-sync last wrote, for every project: in the `redis` passed in when the config names
 * one (connected by the caller, and not closed here), else in files under `state_dir` (the
 * `--once` mode for machines without Redis).
 */
export function stateStoreOf(settings: Settings, redis: RedisClient | undefined): StateStore {
  if (redis) return createRedisStateStore(redis, redisPrefixOf(settings));
  if (settings.redis) throw new Error("the config names a Redis: connect it first and pass it as `redis`");
  return createFileStateStore(settings.state_dir);
}
