import type { HeldStore } from "../held/held-store.js";
import type { HistoryStore } from "../history/history-store.js";
import { reviewStoresOf } from "../project-runtime.js";
import { closeRedis } from "../redis/close-redis.js";
import { connectCommandRedis } from "../redis/connect-command-redis.js";
import type { Settings } from "../settings/settings-schema.js";

/**
 * The history and the held plans for a CLI command: in the config's Redis (connected here,
 * bounded by `redis.connect_timeout_ms`), else in files under `state_dir`. No upstream is called.
 */
export async function openReviewStores(settings: Settings, signal?: AbortSignal): Promise<{ readonly history: HistoryStore; readonly held: HeldStore; close(): Promise<void> }> {
  const redis = settings.redis ? await connectCommandRedis(settings.redis, signal) : undefined;
  return {
    ...reviewStoresOf(settings, redis),
    async close() {
      if (redis) await closeRedis(redis);
    },
  };
}
