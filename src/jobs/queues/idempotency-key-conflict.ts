import { PimSyncError } from "../../core/errors/pim-sync-error.js";
/** An Idempotency-Key seen before with another body: nothing is queued (trigger 422, CLI exit 2). */
export class IdempotencyKeyConflict extends PimSyncError {
  constructor(
    /** The job the key was first used for, as `jobs list` names it (`67/add-…`, `activation/act-…`). */
    readonly jobRef: string,
  ) {
    super(`already used for another request body (job ${jobRef}); use a new key for a new request`, {
      code: "IDEMPOTENCY_KEY_CONFLICT",
      retryable: false,
    });
    this.name = "IdempotencyKeyConflict";
  }
}
