import { PimSyncError } from "../../core/errors/pim-sync-error.js";

/**
 * A rate budget refused to wait: it is paused (an upstream's Retry-After, possibly one another
 * project or process met) for longer than `http.max_retry_after_ms`. Waiting in-process would
 * hold a worker slot and a project lock doing nothing; failing as transient with the pause's end
 * as `retryAfterMs` lets the job queue delay the job instead. The HTTP client turns it into an
 * `HttpError` naming the request (code `HTTP_PAUSED`).
 */
export class BudgetPaused extends PimSyncError {
  constructor(
    /** How long the pause still lasts. */
    readonly pauseLeftMs: number,
    /** The longest pause waited for in-process (`http.max_retry_after_ms`). */
    readonly maxPauseMs: number,
  ) {
    super(`the upstream budget is paused for ${pauseLeftMs} ms more, longer than http.max_retry_after_ms (${maxPauseMs} ms)`, {
      code: "HTTP_PAUSED",
      retryable: true,
      retryAfterMs: pauseLeftMs,
    });
    this.name = "BudgetPaused";
  }
}
