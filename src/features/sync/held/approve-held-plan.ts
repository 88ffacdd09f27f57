import type { HeldPlan } from "./held-plan.js";
import type { HeldStore } from "./held-store.js";

export type ApproveResult = { readonly approved: HeldPlan } | { readonly notFound: string } | { readonly conflict: string };

/** A sync rewrites a plan at most once per run: a few rounds always get past one. */
const ATTEMPTS = 5;

/**
 * Marks a pending plan approved by `by` (an approved one is left as it was: approving twice
 * changes nothing). A compare-and-set on the plan's revision: if a sync rewrote the plan between
 * the read and the write (held the same options again), the approval is given to the plan as it
 * is now; if the sync replaced it by another plan, there is nothing of that id left to approve.
 */
export async function approveHeldPlan(
  store: HeldStore,
  project: number,
  id: string,
  by: string,
  nowMs: number = Date.now(),
): Promise<ApproveResult> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const plan = (await store.list(project)).find((candidate) => candidate.id === id);
    if (plan === undefined)
      return { notFound: `no held plan '${id}' in project ${project} (expired, carried out, superseded by a later run, or never held)` };
    if (plan.approved !== null) return { approved: plan };
    const approved: HeldPlan = { ...plan, approved: { by, at: new Date(nowMs).toISOString() } };
    if (await store.save(approved, plan)) return { approved: { ...approved, revision: plan.revision + 1 } };
  }
  return { conflict: `held plan '${id}' of project ${project} kept changing while it was being approved: try again` };
}
