import type { DeletionGuard } from "./collection-plan.js";

/**
 * Returns why deletions must be held back, or null when they may go ahead. Peers show both
 * failure modes this stops: a wiped collection after an empty or partial read, and a mass
 * delete nobody meant.
 */
export function checkDeletionGuard(args: {
  readonly deletes: number;
  readonly lastWrittenCount: number;
  readonly desiredCount: number;
  readonly guard: DeletionGuard;
}): string | null {
  const { deletes, lastWrittenCount, desiredCount, guard } = args;
  if (deletes === 0) return null;
  if (desiredCount === 0) {
    return `the PIM returned no option where ${lastWrittenCount} were last written`;
  }
  if (deletes > guard.maxFraction * lastWrittenCount && deletes >= guard.minCount) {
    return `would delete ${deletes} of ${lastWrittenCount} options (more than ${Math.round(guard.maxFraction * 100)}%)`;
  }
  return null;
}
