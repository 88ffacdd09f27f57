import { addOptionsOutcomeSchema } from "./add-options-outcome.js";

/**
 * One line telling what became of an add-options request, from its job's result (`jobs show`):
 * `added 2, already present 1 (carried out in the run of 67/12)`. Null for anything else.
 */
export function describeAddOptionsOutcome(project: string, result: unknown): string | null {
  const parsed = addOptionsOutcomeSchema.safeParse(result);
  if (!parsed.success) return null;
  const outcome = parsed.data;
  const added = outcome.collections.reduce((sum, c) => sum + c.added.length, 0);
  const present = outcome.collections.reduce((sum, c) => sum + c.skipped.length, 0);
  const where = outcome.merged_into === null ? "" : ` (carried out in the run of ${project}/${outcome.merged_into})`;
  return `${outcome.status.replace("_", " ")}: ${added} added, ${present} already present, ${outcome.missing.length} collection(s) missing${where}`;
}
