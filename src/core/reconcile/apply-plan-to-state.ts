import type { ServiceLabels } from "../domain/option-collection.js";
import type { CollectionPlan, LastWritten } from "./collection-plan.js";

/** The state to record once the service accepted a plan's write. Held-back names stay. */
export function nextLastWritten(before: LastWritten, plan: CollectionPlan): Map<string, ServiceLabels> {
  const next = new Map<string, ServiceLabels>(plan.action === "replace" || before === null ? [] : before);
  for (const rename of plan.renames ?? []) {
    for (const name of rename.from) next.delete(name);
    next.set(rename.option.name, rename.option.label);
  }
  for (const name of plan.deletes) next.delete(name);
  for (const option of plan.upserts) next.set(option.name, option.label);
  return next;
}
