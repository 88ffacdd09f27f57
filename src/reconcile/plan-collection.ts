import type { ServiceLabels, ServiceOption } from "../domain/option-collection.js";
import { serviceLabelsEqual } from "../derive/labels.js";
import type { CollectionPlan, DeletionGuard, LastWritten } from "./collection-plan.js";
import { checkDeletionGuard } from "./deletion-guard.js";

export interface PlanCollectionInput {
  readonly collection: string;
  readonly desired: readonly ServiceOption[];
  readonly lastWritten: LastWritten;
  readonly full: boolean;
  readonly allowMassDelete: boolean;
  readonly guard: DeletionGuard;
  /**
   * Options recently added through add-options (name → labels). The PIM's lists are eventually
   * consistent, so a sync right after an addition may not see them yet: they are never deleted,
   * and a replace writes them along with the PIM's options.
   */
  readonly recentlyAdded?: ReadonlyMap<string, ServiceLabels>;
}

/**
 * Plans the write for one collection against what pim-sync last wrote there (the service
 * cannot list a collection's options). Pure: same input, same plan.
 */
export function planCollection(input: PlanCollectionInput): CollectionPlan {
  const { collection, desired, lastWritten } = input;
  if (lastWritten === null) {
    // Nothing known about the collection's content: replacing is the only way to end equal
    // to the PIM. No guard: there is no evidence of what would be lost.
    const desiredKeys = new Set(desired.map((option) => option.name.toLowerCase()));
    const keptOptions = [...(input.recentlyAdded ?? new Map<string, ServiceLabels>())]
      .filter(([name]) => !desiredKeys.has(name.toLowerCase()))
      .map(([name, label]) => ({ name, label }));
    return {
      collection,
      action: "replace",
      reason: "no-state",
      upserts: [...desired, ...keptOptions],
      deletes: [],
      heldBack: null,
      kept: keptOptions.map((option) => option.name),
    };
  }

  const desiredNames = new Set(desired.map((option) => option.name));
  const missingFromPim = [...lastWritten.keys()].filter((name) => !desiredNames.has(name));
  const kept = missingFromPim.filter((name) => input.recentlyAdded?.has(name) === true);
  const removed = missingFromPim.filter((name) => input.recentlyAdded?.has(name) !== true);
  const verdict = input.allowMassDelete
    ? null
    : checkDeletionGuard({ deletes: removed.length, lastWrittenCount: lastWritten.size, desiredCount: desired.length, guard: input.guard });

  if (input.full && verdict === null && kept.length === 0) {
    return { collection, action: "replace", reason: "full", upserts: desired, deletes: [], heldBack: null, kept };
  }

  // `--full` under a tripped guard (or with recent additions to keep) degrades to rewriting
  // every option and deleting only what may be deleted.
  const upserts = input.full
    ? desired
    : desired.filter((option) => {
        const before = lastWritten.get(option.name);
        return before === undefined || !serviceLabelsEqual(before, option.label);
      });
  const deletes = verdict === null ? removed : [];
  const heldBack = verdict === null ? null : { names: removed, reason: verdict };
  if (upserts.length === 0 && deletes.length === 0) {
    return { collection, action: "none", reason: "unchanged", upserts: [], deletes: [], heldBack, kept };
  }
  return { collection, action: "update", reason: input.full ? "full" : "changed", upserts, deletes, heldBack, kept };
}
