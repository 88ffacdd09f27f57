import { AddOptionsRejected } from "../add-options/add-options-rejected.js";
import { ActivationProtocolError } from "../activation/activation-errors.js";
import { OfferKeyError } from "../activation/offer-key.js";
import { ActivationNotConfigured } from "../activation/activation-runtime.js";
import { HttpError } from "../http/http-error.js";
import { ConfigError } from "../settings/config-error.js";
import { ProjectScopeError } from "../sync/sync-project.js";
import { JobDataError } from "./job-catalog.js";
import { SyncIncomplete } from "./job-handlers.js";

export type FailureVerdict =
  /** Will fail the same way again: fail now, whatever attempts are left. */
  | { readonly kind: "permanent"; readonly reason: string }
  /** The upstream said when to come back: delay the job without using an attempt. */
  | { readonly kind: "delay"; readonly delayMs: number; readonly reason: string }
  /** Worth another attempt after the catalog's backoff. */
  | { readonly kind: "retry"; readonly reason: string };

/** One place that turns an error into a retry decision. */
export function classifyFailure(error: unknown): FailureVerdict {
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof JobDataError || error instanceof AddOptionsRejected || error instanceof ConfigError || error instanceof ProjectScopeError) {
    return { kind: "permanent", reason };
  }
  if (error instanceof ActivationProtocolError || error instanceof ActivationNotConfigured || error instanceof OfferKeyError) {
    return { kind: "permanent", reason };
  }
  // Every failure of the sync would recur (a derivation problem, a 4xx): retrying re-reads the
  // whole PIM for nothing.
  if (error instanceof SyncIncomplete && error.permanent) return { kind: "permanent", reason };
  if (error instanceof SyncIncomplete && error.retryAfterMs !== null) return { kind: "delay", delayMs: error.retryAfterMs, reason };
  if (error instanceof HttpError) {
    if (!error.transient) return { kind: "permanent", reason };
    if (error.retryAfterMs !== undefined) return { kind: "delay", delayMs: error.retryAfterMs, reason };
    return { kind: "retry", reason };
  }
  return { kind: "retry", reason };
}
