import { PimSyncError } from "../../core/errors/pim-sync-error.js";
/**
 * A request that can never succeed as it is (not allowlisted, wrong attribute type, bad input):
 * rejected before any write, and never retried.
 */
export class AddOptionsRejected extends PimSyncError {
  constructor(readonly reasons: readonly string[]) {
    super(`add-options rejected: ${reasons.join("; ")}`, { code: "ADD_OPTIONS_REJECTED", retryable: false });
    this.name = "AddOptionsRejected";
  }
}
