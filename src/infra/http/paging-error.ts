import { PimSyncError } from "../../core/errors/pim-sync-error.js";
/**
 * A list whose paging misbehaved: a `next` link or cursor that repeats, an item served twice, an
 * empty page that claims more, or a count that does not match what was read. The list read so
 * far is not the upstream's list, so nothing may be planned from it (a missing option would
 * be deleted). Worth another try later: the upstream may have been changing the list under us.
 */
export class PagingError extends PimSyncError {
  constructor(
    readonly upstream: string,
    readonly list: string,
    what: string,
  ) {
    // Retryable: a list that changed while it was read reads right the next time.
    super(`[${upstream}] paging of ${list} misbehaved: ${what}; nothing of this list is used`, {
      code: "UPSTREAM_PAGING",
      retryable: true,
    });
    this.name = "PagingError";
  }
}
