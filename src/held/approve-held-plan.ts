import type { HeldPlan } from "./held-plan.js";
import type { HeldStore } from "./held-store.js";

export type ApproveResult = { readonly approved: HeldPlan } | { readonly notFound: string };

/** Marks a pending plan approved by `by` (an approved one is left as it was: approving twice changes nothing). */
export async function approveHeldPlan(
  store: HeldStore,
  project: number,
  id: string,
  by: string,
  nowMs: number = Date.now(),
): Promise<ApproveResult> {
  const plan = (await store.list(project)).find((candidate) => candidate.id === id);
  if (plan === undefined)
    return { notFound: `no held plan '${id}' in project ${project} (expired, carried out, superseded by a later run, or never held)` };
  if (plan.approved !== null) return { approved: plan };
  const approved: HeldPlan = { ...plan, approved: { by, at: new Date(nowMs).toISOString() } };
  await store.put(approved);
  return { approved };
}
