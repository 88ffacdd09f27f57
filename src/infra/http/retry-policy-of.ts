import type { Settings } from "../../settings/settings-schema.js";
import type { RetryPolicy } from "./retry-policy.js";

/** The `http` section of the config as the retry policy every upstream client applies. */
export function retryPolicyOf(settings: Settings): RetryPolicy {
  return {
    maxAttempts: settings.http.max_attempts,
    baseDelayMs: settings.http.base_delay_ms,
    maxDelayMs: settings.http.max_delay_ms,
    maxRetryAfterMs: settings.http.max_retry_after_ms,
  };
}
