import type { DeletionGuard } from "./collection-plan.js";

/**
 * How long a collection's deletion records are kept, and so the longest window the guard can
 * count over: the settings refuse a longer one instead of silently counting less.
 */
export const DELETION_RECORD_MS = 30 * 86_400_000;

/** "24 h", "90 min", "45 s": the guard's window as its reason names it. */
export function describeWindow(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 1000)} s`;
}

/**
 * Returns why deletions must be held back, or null when they may go ahead. Peers show both
 * failure modes this stops: a wiped collection after an empty or partial read, and a mass
 * delete nobody meant.
 *
 * `recentDeletes` are the collection's deletions already made within the guard's window by
 * earlier runs (not reviewed by an admin): they count as if this run made them, against the
 * collection as it was before them. Without this, a removal split into runs of a few options
 * each (PIM events) would pass a guard that only ever sees one run.
 */
export function checkDeletionGuard(args: {
  readonly deletes: number;
  readonly lastWrittenCount: number;
  readonly desiredCount: number;
  readonly guard: DeletionGuard;
  readonly recentDeletes?: number;
}): string | null {
  const { deletes, lastWrittenCount, desiredCount, guard } = args;
  if (deletes === 0) return null;
  if (desiredCount === 0) {
    return `the PIM returned no option where ${lastWrittenCount} were last written`;
  }
  const percent = Math.round(guard.maxFraction * 100);
  const recent = args.recentDeletes ?? 0;
  if (recent > 0) {
    const total = deletes + recent;
    const before = lastWrittenCount + recent;
    if (total > guard.maxFraction * before && total >= guard.minCount)
      return `would delete ${deletes} of ${lastWrittenCount} options, ${total} of ${before} with the ${recent} deleted in the last ${describeWindow(guard.windowMs ?? 0)} (more than ${percent}%)`;
    return null;
  }
  if (deletes > guard.maxFraction * lastWrittenCount && deletes >= guard.minCount) {
    return `would delete ${deletes} of ${lastWrittenCount} options (more than ${percent}%)`;
  }
  return null;
}
