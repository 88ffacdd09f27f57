import type { AddOptionsOutcome, CollectionOutcome } from "./add-options-outcome.js";

/**
 * Each request's outcome once its batch is written, in queue order; the first request is the
 * job that ran the batch (`merged_into` null, the others name it). A request `undecided` gets
 * none (it runs again); a rejected one reports its reasons and only what its collections really
 * got; otherwise it is `added` when any collection got an option, else `already_present`. Pure.
 */
export function assembleOutcomes(args: {
  readonly requests: readonly { readonly id: string; readonly project: number; readonly attribute: string }[];
  readonly rejected: ReadonlyMap<string, readonly string[]>;
  readonly undecided: ReadonlySet<string>;
  readonly collections: ReadonlyMap<string, readonly CollectionOutcome[]>;
  /** Per attribute, the collections it derives that the service lacks. */
  readonly missing: ReadonlyMap<string, readonly string[]>;
}): Map<string, AddOptionsOutcome> {
  const leader = args.requests[0]?.id ?? null;
  const outcomes = new Map<string, AddOptionsOutcome>();
  for (const { id, project, attribute } of args.requests) {
    if (args.undecided.has(id)) continue;
    const reasons = args.rejected.get(id);
    const collections = (args.collections.get(id) ?? []).map((c) => ({
      collection: c.collection,
      added: [...c.added],
      skipped: [...c.skipped],
    }));
    outcomes.set(id, {
      status: reasons ? "rejected" : collections.some((c) => c.added.length > 0) ? "added" : "already_present",
      reasons: [...(reasons ?? [])],
      project,
      attribute,
      collections,
      missing: reasons ? [] : [...(args.missing.get(attribute) ?? [])],
      merged_into: id === leader ? null : leader,
    });
  }
  return outcomes;
}
