import { RateLimiterMemory } from "rate-limiter-flexible";
import type { AuthThrottleSettings } from "../../settings/settings-schema.js";

export interface LoginThrottle {
  /** How long until every one of these keys may try again, or null when none has used up its failures. */
  waitMs(keys: readonly string[]): Promise<number | null>;
  /** Counts one failed login against each key. */
  failed(keys: readonly string[]): Promise<void>;
}

/**
 * Failed logins per key (a client address, a user name) in a window that starts with the key's
 * first failure. In this process's memory: each worker throttles on its own, and a restart forgets.
 */
export function createLoginThrottle(limits: Pick<AuthThrottleSettings, "max_failures" | "window_ms">): LoginThrottle {
  const failures = new RateLimiterMemory({ points: limits.max_failures, duration: limits.window_ms / 1000 });
  return {
    async waitMs(keys) {
      let wait: number | null = null;
      for (const key of keys) {
        const seen = await failures.get(key);
        if (seen === null || seen.consumedPoints < limits.max_failures) continue;
        wait = Math.max(wait ?? 0, seen.msBeforeNext);
      }
      return wait;
    },
    async failed(keys) {
      // penalty() counts without refusing; waitMs() is where the limit is applied.
      for (const key of keys) await failures.penalty(key, 1);
    },
  };
}
