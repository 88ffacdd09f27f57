import type { ServiceOption } from "../domain/option-collection.js";
import type { LastWritten } from "../reconcile/collection-plan.js";

export interface CollectionAdditions {
  readonly collection: string;
  readonly add: readonly ServiceOption[];
  /** Already in the collection: add-options cannot update an option, so these are not sent. */
  readonly skipped: readonly string[];
}

/**
 * Which requested options each collection still needs. An option exists when pim-sync wrote it
 * there (case-insensitively, as the PIM compares codes). Pure.
 */
export function planAdditions(collection: string, lastWritten: LastWritten, requested: readonly ServiceOption[]): CollectionAdditions {
  const existing = new Set([...(lastWritten?.keys() ?? [])].map((name) => name.toLowerCase()));
  const add = requested.filter((option) => !existing.has(option.name.toLowerCase()));
  const skipped = requested.filter((option) => existing.has(option.name.toLowerCase())).map((option) => option.name);
  return { collection, add, skipped };
}
