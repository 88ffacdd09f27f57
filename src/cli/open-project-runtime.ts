import type { Logger } from "pino";
import { createProjectRuntime, type ProjectRuntime } from "../project-runtime.js";
import { closeRedis } from "../redis/close-redis.js";
import { connectCommandRedis } from "../redis/connect-command-redis.js";
import type { ProjectSettings, Settings } from "../settings/settings-schema.js";

/**
 * One project's runtime for a CLI command: when the config names a Redis, it is connected first
 * (bounded by `redis.connect_timeout_ms`, see connectCommandRedis), so a Redis that is away
 * ends the command before any upstream is called. `close()` releases the Redis too.
 */
export async function openProjectRuntime(args: {
  readonly settings: Settings;
  readonly project: ProjectSettings;
  readonly logger: Logger;
  readonly signal?: AbortSignal | undefined;
}): Promise<ProjectRuntime> {
  const redis = args.settings.redis ? await connectCommandRedis(args.settings.redis, args.signal) : undefined;
  const runtime = createProjectRuntime({ settings: args.settings, project: args.project, logger: args.logger, redis });
  return {
    ...runtime,
    async close() {
      await runtime.close();
      if (redis) await closeRedis(redis);
    },
  };
}
