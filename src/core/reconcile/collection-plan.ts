import type { ServiceLabels, ServiceOption } from "../domain/option-collection.js";

/** What pim-sync last wrote to one collection: option name → labels. null: nothing known. */
export type LastWritten = ReadonlyMap<string, ServiceLabels> | null;

export interface DeletionGuard {
  /** Deletions above this share of the last-written options are held back... */
  readonly maxFraction: number;
  /** ...when they are at least this many. */
  readonly minCount: number;
  /**
   * How long the guard counts a collection's deletions across runs (0 or left out: each run
   * alone). A removal that arrives a few options at a time is then held once its total crosses
   * the guard, as it would have been in one run.
   */
  readonly windowMs?: number;
}

export const DEFAULT_DELETION_GUARD: DeletionGuard = { maxFraction: 0.5, minCount: 10 };

/**
 * The one write planned for a collection.
 * - `replace`: `delete_all` + every derived option (no state, or `--full`).
 * - `update`: only the differences: new or relabelled options, and deleted names.
 * - `none`: nothing changed since the last write.
 * Held-back deletions are names that stay in the service because a guard stopped them.
 */
export interface CollectionPlan {
  readonly collection: string;
  readonly action: "none" | "replace" | "update";
  readonly reason: "no-state" | "full" | "changed" | "unchanged";
  readonly upserts: readonly ServiceOption[];
  readonly deletes: readonly string[];
  readonly heldBack: { readonly names: readonly string[]; readonly reason: string } | null;
  /** Names the PIM did not list but that were added through add-options moments ago: kept. */
  readonly kept: readonly string[];
  /**
   * Options written under another spelling of the code the PIM now lists (the PIM compares codes
   * case-insensitively: `Teal` written, `teal` listed). Each is written again under the PIM's
   * spelling and its old spellings deleted, in the same request (see splitPlanWrites), so no
   * reading of the service ever lacks the option. Not deletions: no guard counts them, and the
   * PIM is not asked about them. Absent when there are none.
   */
  readonly renames?: readonly Rename[];
}

export interface Rename {
  readonly from: readonly string[];
  readonly option: ServiceOption;
}
