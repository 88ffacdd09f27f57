import type { HistoryGroup } from "../../../stores/history/history-batch.js";
import type { HistoryTrigger } from "../../../stores/history/history-entry.js";
import type { HistoryStore } from "../../../stores/history/history-store.js";
import type { HeldPlan } from "./held-plan.js";
import type { HeldStore } from "./held-store.js";

export type DismissResult = { readonly dismissed: HeldPlan } | { readonly notFound: string } | { readonly conflict: string };

/** A sync rewrites a plan at most once per run: a few rounds always get past one. */
const ATTEMPTS = 5;

/**
 * An admin refuses a held plan's deletions (pending or approved): its options stay in the
 * service, each with a `kept` entry in the history saying who dismissed it, and the plan goes. A
 * later run that still finds them missing from the PIM decides afresh, through the guard, and
 * holds them again if it stops them: a dismissal says "not these deletions now", not "never".
 *
 * The history first, then a compare-and-set discard of the plan as it was read: a plan a sync
 * rewrote meanwhile is read again (its new options recorded too), and a plan whose entries are
 * stored but whose discard failed is still there, never gone unrecorded. An entry may be there
 * twice only if the same option is dismissed twice.
 */
export async function dismissHeldPlan(args: {
  readonly held: HeldStore;
  readonly history: HistoryStore;
  readonly project: number;
  readonly id: string;
  readonly by: string;
  readonly trigger: Extract<HistoryTrigger, "admin" | "cli">;
  readonly nowMs?: number;
}): Promise<DismissResult> {
  const { held, project, id, by } = args;
  const recorded = new Set<string>();
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const plan = (await held.list(project)).find((candidate) => candidate.id === id);
    if (plan === undefined)
      return { notFound: `no held plan '${id}' in project ${project} (expired, carried out, superseded by a later run, or never held)` };
    const at = new Date(args.nowMs ?? Date.now()).toISOString();
    const batch: HistoryGroup[] = [];
    for (const collection of plan.collections) {
      const options = collection.options.filter((option) => !recorded.has(`${collection.collection}\u0000${option}`));
      if (options.length === 0) continue;
      batch.push({
        collection: collection.collection,
        kind: "kept",
        reason: `held deletion dismissed by ${by}${plan.approved === null ? "" : ` (it was approved by ${plan.approved.by})`}: the option stays in the service; a run that still finds it missing from the PIM decides again (held plan ${plan.id})`,
        job: `dismiss/${plan.id}`,
        trigger: args.trigger,
        requestedBy: by,
        at,
        options,
      });
    }
    if (batch.length > 0) await args.history.append(project, batch);
    for (const collection of plan.collections)
      for (const option of collection.options) recorded.add(`${collection.collection}\u0000${option}`);
    if (await held.discard(plan)) return { dismissed: plan };
  }
  return { conflict: `held plan '${id}' of project ${project} kept changing while it was being dismissed: try again` };
}
