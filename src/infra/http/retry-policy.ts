import type { HttpError } from "./http-error.js";

/**
 * HTTP-level retries are short and bounded; longer outages are the job queue's business
 * (BullMQ attempts with backoff). Never both unbounded. Its numbers are the `http` settings
 * (retryPolicyOf): no client has defaults of its own.
 */
export interface RetryPolicy {
  /** Attempts in total, the first included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A Retry-After longer than this is not waited for in-process: the error goes up instead. */
  readonly maxRetryAfterMs: number;
}

export type RetryDecision = { readonly retry: true; readonly delayMs: number } | { readonly retry: false };

/**
 * Decides whether to try a failed request again and after how long.
 * - Permanent failures (4xx other than 408/425/429, shape errors) never retry.
 * - Non-idempotent requests retry only when the upstream certainly did not apply them
 *   (429: rejected before processing).
 * - Retry-After wins over backoff; otherwise exponential backoff with full jitter.
 * `random` is injected so tests are deterministic.
 */
export function decideRetry(args: {
  readonly error: HttpError;
  readonly attempt: number;
  readonly idempotent: boolean;
  readonly policy: RetryPolicy;
  readonly random: () => number;
}): RetryDecision {
  const { error, attempt, idempotent, policy, random } = args;
  if (!error.transient || attempt >= policy.maxAttempts) return { retry: false };
  const rejectedUnapplied = error.status === 429;
  if (!idempotent && !rejectedUnapplied) return { retry: false };
  if (error.retryAfterMs !== undefined) {
    if (error.retryAfterMs > policy.maxRetryAfterMs) return { retry: false };
    return { retry: true, delayMs: error.retryAfterMs };
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // Full jitter, never below a small floor so a storm of 429s does not hammer the upstream.
  const delayMs = Math.max(policy.baseDelayMs / 2, Math.round(ceiling * random()));
  return { retry: true, delayMs };
}
