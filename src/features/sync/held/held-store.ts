import type { HeldPlan } from "./held-plan.js";

/**
 * Where held plans are kept: a Redis hash per project, or a file in `--once` mode. Every write is
 * a compare-and-set on the plan's revision: a sync reviews the plans it read before it started,
 * while an admin may approve one meanwhile, and neither may undo the other.
 */
export interface HeldStore {
  /** The project's plans that have not expired, oldest first (expired ones are dropped on the way). */
  list(project: number): Promise<HeldPlan[]>;
  /**
   * Writes `plan` (its revision set to the next one) if the stored plan with its id is still
   * `read` (same revision), or, with `read` null, if there is none. False when it changed or
   * went meanwhile: nothing was written.
   */
  save(plan: HeldPlan, read: HeldPlan | null): Promise<boolean>;
  /** Removes the plan if it is still at the revision read; false when it changed or went meanwhile. */
  discard(plan: HeldPlan): Promise<boolean>;
}

/** The plan as the next write stores it. */
export function nextRevision(plan: HeldPlan, read: HeldPlan | null): HeldPlan {
  return { ...plan, revision: read === null ? 0 : read.revision + 1 };
}

/**
 * A pending plan expires: nobody decided in time, and the next run that still finds the
 * deletions holds them again. An approved one does not: it waits for the run that carries it
 * out, or is superseded with its reason in the history (reviewAfterRun), never dropped silently.
 */
export function isExpired(plan: HeldPlan, nowMs: number): boolean {
  return plan.approved === null && Date.parse(plan.expiresAt) <= nowMs;
}

export function oldestFirst(a: HeldPlan, b: HeldPlan): number {
  return a.heldAt < b.heldAt ? -1 : a.heldAt > b.heldAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
