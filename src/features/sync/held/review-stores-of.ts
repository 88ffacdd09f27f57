import { DISABLED_HISTORY, type HistoryStore } from "../../../stores/history/history-store.js";
import { createFileHistoryStore } from "../../../stores/history/file-history-store.js";
import { createRedisHistoryStore } from "../../../stores/history/redis-history-store.js";
import type { RedisClient } from "../../../infra/redis/redis-client.js";
import { redisPrefixOf } from "../../../settings/redis-prefix-of.js";
import type { Settings } from "../../../settings/settings-schema.js";
import type { HeldStore } from "./held-store.js";
import { createFileHeldStore } from "./file-held-store.js";
import { createRedisHeldStore } from "./redis-held-store.js";

/**
 * The change history and the held plans, beside the state: in the Redis when the config names
 * one, else in files under `state_dir`. Apart from the project runtime so that `history` and
 * `held` load no upstream client.
 */
export function reviewStoresOf(
  settings: Settings,
  redis: RedisClient | undefined,
): { readonly history: HistoryStore; readonly held: HeldStore } {
  const retentionMs = settings.history.retention_ms;
  if (redis) {
    const prefix = redisPrefixOf(settings);
    return {
      history: settings.history.enabled ? createRedisHistoryStore(redis, prefix, { retentionMs }) : DISABLED_HISTORY,
      held: createRedisHeldStore(redis, prefix),
    };
  }
  if (settings.redis) throw new Error("the config names a Redis: connect it first and pass it as `redis`");
  return {
    history: settings.history.enabled ? createFileHistoryStore(settings.state_dir, { retentionMs }) : DISABLED_HISTORY,
    held: createFileHeldStore(settings.state_dir),
  };
}
