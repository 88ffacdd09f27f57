import { PimSyncError } from "../../core/errors/pim-sync-error.js";
import { messageOf } from "../../core/errors/message-of.js";

export type FailureVerdict =
  /** Will fail the same way again: fail now, whatever attempts are left. */
  | { readonly kind: "permanent"; readonly reason: string }
  /** The upstream said when to come back: delay the job without using an attempt. */
  | { readonly kind: "delay"; readonly delayMs: number; readonly reason: string }
  /** Worth another attempt after the catalog's backoff. */
  | { readonly kind: "retry"; readonly reason: string };

/**
 * One place that turns an error into a retry decision, from the fields every pim-sync error
 * carries (src/core/errors/pim-sync-error.ts): `retryable` and `retryAfterMs`. Anything else thrown
 * (a bug, a library's error) is retried: a retry is bounded by the catalog's attempts, and
 * failing a job for good on an error nobody classified would lose the request.
 */
export function classifyFailure(error: unknown): FailureVerdict {
  const reason = messageOf(error);
  if (!(error instanceof PimSyncError)) return { kind: "retry", reason };
  if (!error.retryable) return { kind: "permanent", reason };
  if (error.retryAfterMs !== undefined) return { kind: "delay", delayMs: error.retryAfterMs, reason };
  return { kind: "retry", reason };
}
