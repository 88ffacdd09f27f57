import { PimSyncError } from "../../core/errors/pim-sync-error.js";

/**
 * A sync that could not finish everything: retried, and only what is left gets written; unless
 * every failure is one a retry would meet again (`permanent`), which fails the job at once.
 */
export class SyncIncomplete extends PimSyncError {
  readonly permanent: boolean;

  constructor(
    readonly failures: readonly string[],
    /** When an upstream said how long to wait (429/503 Retry-After). */
    retryAfterMs: number | null,
    permanentFailures: readonly string[] = [],
  ) {
    const permanent = failures.length > 0 && failures.every((failure) => permanentFailures.includes(failure));
    super(`sync incomplete: ${failures.join("; ")}`, {
      code: "SYNC_INCOMPLETE",
      retryable: !permanent,
      retryAfterMs: retryAfterMs ?? undefined,
    });
    this.name = "SyncIncomplete";
    this.permanent = permanent;
  }
}
