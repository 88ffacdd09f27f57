import type { RedisSettings } from "../../settings/settings-schema.js";
import type { RedisClient } from "./redis-client.js";
import { describeRedisTarget } from "./redis-target.js";
import { RedisUnavailableError } from "./redis-unavailable-error.js";

/** Between connection attempts of a command; the whole wait is bounded by `connect_timeout_ms`. */
const RETRY_DELAY_MS = 250;

/**
 * A connected Redis for a CLI command, or a RedisUnavailableError once `redis.connect_timeout_ms`
 * has passed without an answer. An abort (SIGINT/SIGTERM) ends the wait at once, with the
 * signal's reason. Errors after the connection is up reach the commands that were waiting on
 * Redis, never the console.
 */
export async function connectCommandRedis(settings: RedisSettings, signal?: AbortSignal): Promise<RedisClient> {
  const timeoutMs = settings.connect_timeout_ms;
  const started = Date.now();
  let lastError: Error | undefined;
  // Loaded here, not at the top: `sync --once` with its state in files never needs ioredis, and
  // loading it costs about 0.1 s of a command's start (docs/benchmarks.md, change 5).
  const { openRedisClient } = await import("./open-redis-client.js");
  const redis = openRedisClient(settings, "command", {
    retryDelayMs: () => (Date.now() - started + RETRY_DELAY_MS < timeoutMs ? RETRY_DELAY_MS : null),
  });
  redis.on("error", (error: Error) => {
    lastError = error;
  });
  const cleanups: (() => void)[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const giveUp = (): void => {
        const why = lastError ? lastError.message : "no answer";
        reject(
          new RedisUnavailableError(describeRedisTarget(settings), `${why} (gave up after ${timeoutMs} ms, redis.connect_timeout_ms)`, {
            cause: lastError,
          }),
        );
      };
      const timer = setTimeout(giveUp, timeoutMs);
      cleanups.push(() => clearTimeout(timer));
      const onAbort = (): void => reject(signal?.reason instanceof Error ? signal.reason : new Error("interrupted"));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      cleanups.push(() => signal?.removeEventListener("abort", onAbort));
      redis.once("ready", resolve);
      // Reconnecting stopped (the retry strategy gave up): no point waiting for the timer.
      redis.once("end", giveUp);
      cleanups.push(() => {
        redis.off("ready", resolve);
        redis.off("end", giveUp);
      });
      redis.connect().catch(() => undefined);
    });
  } catch (error) {
    redis.disconnect();
    throw error;
  } finally {
    for (const cleanup of cleanups) cleanup();
  }
  return redis;
}
