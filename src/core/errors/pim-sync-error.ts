import type { ErrorCode } from "./error-codes.js";

export interface PimSyncErrorOptions {
  readonly code: ErrorCode;
  /** Whether another attempt later can succeed; the job layer's classifier reads only this. */
  readonly retryable: boolean;
  /** When the upstream said when to come back (429/503 `Retry-After`): a delay, not an attempt. */
  readonly retryAfterMs?: number | undefined;
  readonly cause?: unknown;
}

/**
 * The base of every error pim-sync throws on purpose: a stable code, whether a retry can help,
 * and the cause it wraps. The job layer decides retries from these fields alone
 * (src/jobs/worker/classify-failure.ts), so a new error class needs no change there.
 */
export class PimSyncError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: PimSyncErrorOptions) {
    // A cause given (even undefined) is an own property, as Error itself does it.
    super(message, "cause" in options ? { cause: options.cause } : undefined);
    this.name = new.target.name;
    this.code = options.code;
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
  }
}
