import { serviceLabelsEqual } from "../derive/labels.js";
import type { CollectionPlan, LastWritten } from "../reconcile/collection-plan.js";
import type { OptionsWrite } from "../reconcile/split-plan-writes.js";
import type { HistoryEntry } from "./history-entry.js";
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

/**
 * The history entries of one write the service accepted: one per option it changed. Pure. A
 * rename is one `renamed` entry (its old spellings' deletions are part of it); a replace's
 * `delete_all` shows as a `deleted` entry for each option known to be there that it did not
 * write again.
 */
export function entriesOfWrite(write: OptionsWrite, context: WriteContext): HistoryEntry[] {
  const { plan, lastWritten, origin, at } = context;
  const base = { collection: plan.collection, job: origin.job, trigger: origin.trigger, ...(origin.requestedBy === undefined ? {} : { requestedBy: origin.requestedBy }), at };
  const renames = plan.renames ?? [];
  const renameTo = new Map(renames.map((rename) => [rename.option.name, rename] as const));
  const renamedAway = new Set(renames.flatMap((rename) => rename.from));
  const entries: HistoryEntry[] = [];

  if (write.delete_all && lastWritten !== null) {
    const written = new Set(plan.upserts.map((option) => option.name));
    for (const [name, labels] of lastWritten) {
      if (written.has(name)) continue;
      entries.push({ ...base, option: name, kind: "deleted", labelsBefore: { ...labels }, labelsAfter: null, reason: `not in the PIM's list: dropped by the collection's replace (${replaceReason(plan)})` });
    }
  }
  for (const name of write.delete_options) {
    if (renamedAway.has(name)) continue;
    const confirmed = context.deletionsConfirmedAt === null ? "" : ` (confirmed by a read of the PIM at ${context.deletionsConfirmedAt})`;
    const approval = context.approvedIn?.get(name);
    const approved = approval === undefined ? "" : `; held back by the deletion guard, then approved in held plan ${approval}`;
    const before = lastWritten?.get(name);
    entries.push({ ...base, option: name, kind: "deleted", labelsBefore: before === undefined ? null : { ...before }, labelsAfter: null, reason: `the PIM no longer has it${confirmed}${approved}` });
  }
  for (const option of write.upsert_options) {
    const after = { ...option.label };
    const rename = renameTo.get(option.name);
    if (rename) {
      const before = rename.from.map((name) => lastWritten?.get(name)).find((labels) => labels !== undefined);
      entries.push({ ...base, option: option.name, kind: "renamed", labelsBefore: before === undefined ? null : { ...before }, labelsAfter: after, renamedFrom: [...rename.from], reason: `the PIM spells the code '${option.name}' now (was ${rename.from.map((name) => `'${name}'`).join(", ")})` });
      continue;
    }
    const before = lastWritten?.get(option.name);
    const labelsBefore = before === undefined ? null : { ...before };
    if (plan.action === "replace") entries.push({ ...base, option: option.name, kind: "replaced", labelsBefore, labelsAfter: after, reason: replaceReason(plan) });
    else if (before === undefined) entries.push({ ...base, option: option.name, kind: "added", labelsBefore, labelsAfter: after, reason: "new in the PIM" });
    else if (!serviceLabelsEqual(before, option.label)) entries.push({ ...base, option: option.name, kind: "relabelled", labelsBefore, labelsAfter: after, reason: "its labels changed in the PIM" });
    // A `--full` run whose replace a guard or a recent addition turned into an update rewrites every option.
    else entries.push({ ...base, option: option.name, kind: "replaced", labelsBefore, labelsAfter: after, reason: "rewritten unchanged by a --full run" });
  }
  return entries;
}
