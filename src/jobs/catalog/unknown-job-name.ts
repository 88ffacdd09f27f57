import { PimSyncError } from "../../core/errors/pim-sync-error.js";

/** A job name the catalog does not have, or one that does not run on the queue it was found on: never retried. */
export class UnknownJobName extends PimSyncError {
  constructor(
    readonly jobName: string,
    /** The queue it was asked of, when it matters. */
    queue?: string,
  ) {
    super(`unknown job name '${jobName}'${queue === undefined ? "" : ` on the ${queue} queue`}`, {
      code: "JOB_NAME_UNKNOWN",
      retryable: false,
    });
    this.name = "UnknownJobName";
  }
}
