import type { ServiceOption } from "../domain/option-collection.js";
import type { CollectionPlan } from "./collection-plan.js";

/** One update-options request body. */
export interface OptionsWrite {
  readonly upsert_options: readonly ServiceOption[];
  readonly delete_options: readonly string[];
  readonly delete_all: boolean;
}

/**
 * The requests that carry a plan: one, unless the plan holds more options than one request
 * should (the service's body limits are not published). `delete_all` rides on the first
 * request only, deletions go before upserts. Empty for a plan with nothing to write.
 */
export function splitPlanWrites(plan: CollectionPlan, maxOptionsPerWrite: number): OptionsWrite[] {
  if (plan.action === "none") return [];
  if (Number.isNaN(maxOptionsPerWrite)) throw new Error(`maxOptionsPerWrite must be a number, got ${maxOptionsPerWrite}`);
  const size = Math.max(1, Math.floor(maxOptionsPerWrite));
  const writes: OptionsWrite[] = [];
  let deleteIndex = 0;
  let upsertIndex = 0;
  do {
    const deletes = plan.deletes.slice(deleteIndex, deleteIndex + size);
    deleteIndex += deletes.length;
    const room = size - deletes.length;
    const upserts = plan.upserts.slice(upsertIndex, upsertIndex + room);
    upsertIndex += upserts.length;
    writes.push({ upsert_options: upserts, delete_options: deletes, delete_all: plan.action === "replace" && writes.length === 0 });
  } while (deleteIndex < plan.deletes.length || upsertIndex < plan.upserts.length);
  return writes;
}
