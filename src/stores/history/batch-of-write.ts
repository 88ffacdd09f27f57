import type { ServiceLabels } from "../../core/domain/option-collection.js";
import { serviceLabelsEqual } from "../../core/derive/labels.js";
import type { CollectionPlan, LastWritten } from "../../core/reconcile/collection-plan.js";
import type { OptionsWrite } from "../../core/reconcile/split-plan-writes.js";
import type { HistoryBatch, HistoryGroup, OptionChange } from "./history-batch.js";
import type { HistoryKind } from "./history-entry.js";
import type { RunOrigin } from "./run-origin.js";

export interface WriteContext {
  readonly plan: CollectionPlan;
  /** The collection's state before this run wrote to it. */
  readonly lastWritten: LastWritten;
  readonly origin: RunOrigin;
  /** When the service confirmed the write (ISO 8601). */
  readonly at: string;
  /** When the PIM was asked, item by item, whether the deleted options are gone (ISO 8601). */
  readonly deletionsConfirmedAt: string | null;
  /** Deleted options whose deletion an admin approved: option → held plan id. */
  readonly approvedIn?: ReadonlyMap<string, string> | undefined;
}

function replaceReason(plan: CollectionPlan): string {
  return plan.reason === "full" ? "replaced by a --full run" : "no state for the collection: replaced whole (first sync, or state lost)";
}

/** The labels are the state's and unchanged, or nothing was known: the code alone. */
function changeOf(option: string, before: ServiceLabels | null | undefined, after: ServiceLabels | null): OptionChange {
  return (before ?? null) === null && after === null ? option : [option, before ?? null, after];
}

/**
 * What one write the service accepted adds to the history: its options grouped by kind and
 * reason, the run and time stored once per group. Pure; labels are shared with the plan, not
 * copied (the batch is stored before the plan goes). A rename is one `renamed` change (its old
 * spellings' deletions are part of it); a replace's `delete_all` shows as a `deleted` change for
 * each option known to be there that it did not write again.
 *
 * Labels are recorded where they tell something the state does not: before and after for a
 * relabelled or renamed option, after for an added one, before for a deleted one. An option a
 * replace writes again records its code only, unless the state knew it with other labels (then
 * both) or did not know it (then after); a first sync's replace records codes only, the labels
 * it wrote being the state's until a later change records them as `labels before`.
 */
export function batchOfWrite(write: OptionsWrite, context: WriteContext): HistoryBatch {
  const { plan, lastWritten, origin, at } = context;
  const groups: HistoryGroup[] = [];
  const byKind = new Map<HistoryKind, Map<string, OptionChange[]>>();
  // Nested maps rather than a joined key: no string is built per option to find its group.
  const add = (kind: HistoryKind, reason: string, change: OptionChange): void => {
    let byReason = byKind.get(kind);
    if (byReason === undefined) byKind.set(kind, (byReason = new Map()));
    let options = byReason.get(reason);
    if (options === undefined) {
      options = [];
      byReason.set(reason, options);
      groups.push({
        collection: plan.collection,
        kind,
        reason,
        job: origin.job,
        trigger: origin.trigger,
        ...(origin.requestedBy === undefined ? {} : { requestedBy: origin.requestedBy }),
        at,
        options,
      });
    }
    options.push(change);
  };
  const renames = plan.renames ?? [];
  const renameTo = new Map(renames.map((rename) => [rename.option.name, rename] as const));
  const renamedAway = new Set(renames.flatMap((rename) => rename.from));

  if (write.delete_all && lastWritten !== null) {
    const written = new Set(plan.upserts.map((option) => option.name));
    const reason = `not in the PIM's list: dropped by the collection's replace (${replaceReason(plan)})`;
    for (const [name, labels] of lastWritten) if (!written.has(name)) add("deleted", reason, changeOf(name, labels, null));
  }
  const confirmed = context.deletionsConfirmedAt === null ? "" : ` (confirmed by a read of the PIM at ${context.deletionsConfirmedAt})`;
  for (const name of write.delete_options) {
    if (renamedAway.has(name)) continue;
    const approval = context.approvedIn?.get(name);
    const approved = approval === undefined ? "" : `; held back by the deletion guard, then approved in held plan ${approval}`;
    add("deleted", `the PIM no longer has it${confirmed}${approved}`, changeOf(name, lastWritten?.get(name), null));
  }
  const replaced = replaceReason(plan);
  for (const option of write.upsert_options) {
    const rename = renameTo.get(option.name);
    if (rename) {
      const before = rename.from.map((name) => lastWritten?.get(name)).find((labels) => labels !== undefined) ?? null;
      add("renamed", `the PIM spells the code '${option.name}' now (was ${rename.from.map((name) => `'${name}'`).join(", ")})`, [
        option.name,
        before,
        option.label,
        [...rename.from],
      ]);
      continue;
    }
    const before = lastWritten?.get(option.name);
    if (plan.action === "replace") {
      if (lastWritten === null || (before !== undefined && serviceLabelsEqual(before, option.label)))
        add("replaced", replaced, option.name);
      else add("replaced", replaced, changeOf(option.name, before, option.label));
    } else if (before === undefined) add("added", "new in the PIM", changeOf(option.name, null, option.label));
    else if (!serviceLabelsEqual(before, option.label))
      add("relabelled", "its labels changed in the PIM", changeOf(option.name, before, option.label));
    // A `--full` run whose replace a guard or a recent addition turned into an update rewrites every option.
    else add("replaced", "rewritten unchanged by a --full run", option.name);
  }
  return groups;
}
