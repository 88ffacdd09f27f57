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
 * request only. Renames go first, each whole in one request (its old spellings deleted and the
 * new one upserted together, so the option is never missing between two requests); then
 * deletions, then upserts. Empty for a plan with nothing to write.
 */
export function splitPlanWrites(plan: CollectionPlan, maxOptionsPerWrite: number): OptionsWrite[] {
  if (plan.action === "none") return [];
  if (Number.isNaN(maxOptionsPerWrite)) throw new Error(`maxOptionsPerWrite must be a number, got ${maxOptionsPerWrite}`);
  const size = Math.max(1, Math.floor(maxOptionsPerWrite));
  const renames = plan.renames ?? [];
  const writes: OptionsWrite[] = [];
  let renameIndex = 0;
  let deleteIndex = 0;
  let upsertIndex = 0;
  do {
    const deletes: string[] = [];
    const upserts: ServiceOption[] = [];
    let room = size;
    for (let rename = renames[renameIndex]; rename !== undefined; rename = renames[renameIndex]) {
      const cost = rename.from.length + 1;
      // A rename is never split; one larger than a request goes alone.
      if (cost > room && deletes.length + upserts.length > 0) break;
      deletes.push(...rename.from);
      upserts.push(rename.option);
      room -= cost;
      renameIndex += 1;
    }
    const more = plan.deletes.slice(deleteIndex, deleteIndex + Math.max(0, room));
    deleteIndex += more.length;
    deletes.push(...more);
    room -= more.length;
    const moreUpserts = plan.upserts.slice(upsertIndex, upsertIndex + Math.max(0, room));
    upsertIndex += moreUpserts.length;
    upserts.push(...moreUpserts);
    writes.push({ upsert_options: upserts, delete_options: deletes, delete_all: plan.action === "replace" && writes.length === 0 });
  } while (renameIndex < renames.length || deleteIndex < plan.deletes.length || upsertIndex < plan.upserts.length);
  return writes;
}
