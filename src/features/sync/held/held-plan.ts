import { z } from "zod";
import { HISTORY_TRIGGERS } from "../../../stores/history/history-entry.js";

export const heldCollectionSchema = z.object({
  collection: z.string(),
  /** The options the guard kept from being deleted. */
  options: z.array(z.string()),
  /** Why: the share of the collection they are, or an empty read of the PIM. */
  reason: z.string(),
});

/**
 * Deletions a deletion guard held back in one run, kept for an admin's review. Approved, the
 * next sync deletes exactly these options (those it still plans to delete). Stored as is
 * (camelCase), answered in snake_case.
 */
export const heldPlanSchema = z.object({
  id: z.string(),
  project: z.int(),
  collections: z.array(heldCollectionSchema),
  /** When a run first held exactly these deletions (ISO 8601). */
  heldAt: z.string(),
  /** When a run last held them: later runs that hold the same deletions keep the plan. */
  lastHeldAt: z.string(),
  /** The run that last held them. */
  run: z.object({ job: z.string(), trigger: z.enum(HISTORY_TRIGGERS), requestedBy: z.string().optional() }),
  expiresAt: z.string(),
  approved: z.object({ by: z.string(), at: z.string() }).nullable(),
  /**
   * Bumped by every write: a write names the revision it read and is refused if the plan changed
   * meanwhile, so an approval given while a sync runs is never overwritten by the run's older
   * copy. Plans stored before revisions existed read as 0.
   */
  revision: z.int().nonnegative().default(0),
});

export type HeldPlan = z.output<typeof heldPlanSchema>;
export type HeldCollection = z.infer<typeof heldCollectionSchema>;

/** Options a plan holds, in all its collections. */
export function heldOptionCount(plan: HeldPlan): number {
  return plan.collections.reduce((sum, collection) => sum + collection.options.length, 0);
}
