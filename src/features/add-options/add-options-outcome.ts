import { z } from "zod";

const collectionOutcomeSchema = z.object({
  collection: z.string(),
  added: z.array(z.string()),
  skipped: z.array(z.string()),
});

/**
 * What became of one add-options request: stored in Redis for a request merged into another
 * job's batch, and the job's return value (`jobs show`, the admin API). Read back through this
 * schema: Redis is a boundary.
 */
export const addOptionsOutcomeSchema = z.object({
  /** `added`: at least one collection got an option; `already_present`: nothing was missing. */
  status: z.enum(["added", "already_present", "rejected"]),
  /** Why a rejected request was refused (empty otherwise). */
  reasons: z.array(z.string()),
  project: z.number().int(),
  attribute: z.string(),
  collections: z.array(collectionOutcomeSchema),
  /** Collections the attribute derives that do not exist in the service. */
  missing: z.array(z.string()),
  /** The job whose run carried this request out; null when it ran on its own. */
  merged_into: z.string().nullable(),
});

export type AddOptionsOutcome = z.infer<typeof addOptionsOutcomeSchema>;
export type CollectionOutcome = z.infer<typeof collectionOutcomeSchema>;
