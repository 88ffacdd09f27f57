import type { AwaitingReview } from "../../../core/reconcile/plan-collection.js";
import { codeKey } from "../../../core/derive/code-key.js";
import type { HeldPlan } from "./held-plan.js";

/** What a project's held plans mean for the run about to start, per collection. */
export interface HeldForRun {
  /** Approved deletions: collection → option → the plan that approved it. They go ahead though the guard trips. */
  readonly approved: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Deletions waiting for an admin: never deleted, whatever the guard says; held again. */
  readonly awaiting: ReadonlyMap<string, AwaitingReview>;
}

/**
 * Reads the plans listed before a run (expired ones are already gone): approved plans' options
 * may be deleted, pending plans' options may not. A name both approved and pending is approved.
 */
export function heldForRun(plans: readonly HeldPlan[]): HeldForRun {
  const approved = new Map<string, Map<string, string>>();
  const awaiting = new Map<string, { names: Set<string>; reason: string }>();
  for (const plan of plans)
    for (const { collection, options, reason } of plan.collections) {
      if (plan.approved !== null) {
        const byOption = approved.get(collection) ?? new Map<string, string>();
        for (const option of options) if (!byOption.has(option)) byOption.set(option, plan.id);
        approved.set(collection, byOption);
      } else {
        const entry = awaiting.get(collection) ?? { names: new Set<string>(), reason };
        for (const option of options) entry.names.add(codeKey(option));
        awaiting.set(collection, entry);
      }
    }
  return { approved, awaiting };
}
