import { PimSyncError } from "../../core/errors/pim-sync-error.js";
/** A request body the server refuses, with the status to answer. */
export class BodyError extends PimSyncError {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message, { code: "REQUEST_BODY_INVALID", retryable: false });
    this.name = "BodyError";
  }
}
