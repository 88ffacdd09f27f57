import { redisPrefixSchema } from "./redis-settings-schema.js";
import type { Settings } from "./settings-schema.js";

/**
 * The prefix of every Redis key: the config's, or the schema's default when a Redis is used
 * without a `redis` section (a test or a benchmark passing its own connection). The default is
 * read from the schema so that it has one home.
 */
export function redisPrefixOf(settings: Settings): string {
  return settings.redis?.prefix ?? redisPrefixSchema.parse(undefined);
}
