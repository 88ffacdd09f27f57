import type { HeldPlan } from "./held-plan.js";

/** The approved plans' deletions, for the sync: collection → option → the plan that approved it. */
export function approvedDeletionsOf(plans: readonly HeldPlan[]): Map<string, Map<string, string>> {
  const approved = new Map<string, Map<string, string>>();
  for (const plan of plans) {
    if (plan.approved === null) continue;
    for (const { collection, options } of plan.collections) {
      const byOption = approved.get(collection) ?? new Map<string, string>();
      for (const option of options) if (!byOption.has(option)) byOption.set(option, plan.id);
      approved.set(collection, byOption);
    }
  }
  return approved;
}
