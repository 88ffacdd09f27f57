import type { HeldPlan } from "./held-plan.js";

/** Where held plans are kept: a Redis hash per project, or a file in `--once` mode. */
export interface HeldStore {
  /** The project's plans that have not expired, oldest first (expired ones are dropped on the way). */
  list(project: number): Promise<HeldPlan[]>;
  /** Writes a plan (new, or replacing the one with its id). */
  put(plan: HeldPlan): Promise<void>;
  remove(project: number, ids: readonly string[]): Promise<void>;
}

export function isExpired(plan: HeldPlan, nowMs: number): boolean {
  return Date.parse(plan.expiresAt) <= nowMs;
}

export function oldestFirst(a: HeldPlan, b: HeldPlan): number {
  return a.heldAt < b.heldAt ? -1 : a.heldAt > b.heldAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
