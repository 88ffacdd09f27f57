import type { ServiceLabels, ServiceOption } from "../domain/option-collection.js";
import { codeKey } from "../derive/code-key.js";
import { serviceLabelsEqual } from "../derive/labels.js";
import type { CollectionPlan, DeletionGuard, LastWritten, Rename } from "./collection-plan.js";
import { checkDeletionGuard } from "./deletion-guard.js";
import { splitApprovedDeletions } from "./split-approved-deletions.js";

/** A pending held plan's options in one collection and why they were held (codes compared by codeKey). */
export interface AwaitingReview {
  readonly names: ReadonlySet<string>;
  readonly reason: string;
}

export interface PlanCollectionInput {
  readonly collection: string;
  readonly desired: readonly ServiceOption[];
  readonly lastWritten: LastWritten;
  readonly full: boolean;
  readonly allowMassDelete: boolean;
  readonly guard: DeletionGuard;
  /**
   * Options recently added through add-options (name → labels). The PIM's lists are eventually
   * consistent, so a sync right after an addition may not see them yet: they are never deleted,
   * and a replace writes them along with the PIM's options.
   */
  readonly recentlyAdded?: ReadonlyMap<string, ServiceLabels>;
  /**
   * Deletions of this collection an admin approved after a guard held them (src/features/sync/held/): they
   * go ahead though the guard trips; other deletions it holds stay held.
   */
  readonly approvedDeletions?: ReadonlySet<string>;
  /**
   * Deletions of this collection waiting for an admin in a pending held plan (not approved, not
   * expired): none of them is deleted, whatever the guard's count says, and a whole-collection
   * replace cannot happen while any is still planned. They are held again, so the plan keeps
   * them. An approval of the same name (`approvedDeletions`) wins: the admin said yes.
   */
  readonly awaitingReview?: AwaitingReview;
  /**
   * Options of the last-written state left out of `lastWritten` and `desired` (an option-level
   * plan reads only the named options' entries): they stay as they are, so the deletion guard
   * counts them on both sides, as it would with the whole state. Never with `full`.
   */
  readonly unlisted?: number;
  /**
   * This collection's deletions made by earlier runs within the guard's window and not reviewed
   * (see checkDeletionGuard): the guard counts them with this run's.
   */
  readonly recentDeletes?: number;
}

/**
 * Plans the write for one collection against what pim-sync last wrote there (the service
 * cannot list a collection's options). Pure: same input, same plan.
 *
 * Names are compared by `codeKey` (case-insensitively), as the PIM compares codes: `Teal` in
 * the state and `teal` from the PIM are one option, so it is never deleted as gone. It is
 * renamed to the PIM's spelling instead: written again as `teal` and `Teal` deleted in the same
 * request (`renames`), so the service ends with the PIM's code and one option, whether it
 * compares names case-sensitively or not.
 */
export function planCollection(input: PlanCollectionInput): CollectionPlan {
  const { collection, desired, lastWritten } = input;
  const unlisted = input.unlisted ?? 0;
  // A replace would drop the options left out.
  if (unlisted > 0 && (input.full || lastWritten === null))
    throw new Error(`collection '${collection}': a partial state cannot be replaced`);
  const recentlyAdded = input.recentlyAdded ?? new Map<string, ServiceLabels>();
  const desiredKeys = new Set(desired.map((option) => codeKey(option.name)));
  const recentKeys = new Set([...recentlyAdded.keys()].map(codeKey));

  const approvedNames = input.approvedDeletions ?? new Set<string>();
  const approvedKeys = new Set([...approvedNames].map(codeKey));
  const awaitingKeys = new Set([...(input.awaitingReview?.names ?? [])].map(codeKey));
  const awaits = (name: string): boolean => awaitingKeys.has(codeKey(name)) && !approvedKeys.has(codeKey(name));

  if (lastWritten === null) {
    if (input.awaitingReview !== undefined && awaitingKeys.size > 0) {
      // A replace would drop the held options with the rest (their labels are not known to
      // write them back): the collection waits, untouched, until the plan is decided.
      return {
        collection,
        action: "none",
        reason: "no-state",
        upserts: [],
        deletes: [],
        heldBack: { names: [...input.awaitingReview.names].sort(), reason: input.awaitingReview.reason },
        kept: [],
      };
    }
    // Nothing known about the collection's content: replacing is the only way to end equal
    // to the PIM. No guard: there is no evidence of what would be lost.
    const keptOptions = [...recentlyAdded].filter(([name]) => !desiredKeys.has(codeKey(name))).map(([name, label]) => ({ name, label }));
    return {
      collection,
      action: "replace",
      reason: "no-state",
      upserts: [...desired, ...keptOptions],
      deletes: [],
      heldBack: null,
      kept: keptOptions.map((option) => option.name),
    };
  }

  const spellingsByKey = new Map<string, string[]>();
  for (const name of lastWritten.keys()) {
    const spellings = spellingsByKey.get(codeKey(name));
    if (spellings) spellings.push(name);
    else spellingsByKey.set(codeKey(name), [name]);
  }
  const missingFromPim = [...lastWritten.keys()].filter((name) => !desiredKeys.has(codeKey(name)));
  const kept = missingFromPim.filter((name) => recentKeys.has(codeKey(name)));
  const removed = missingFromPim.filter((name) => !recentKeys.has(codeKey(name)));
  const awaiting = removed.filter(awaits);
  const verdict = input.allowMassDelete
    ? null
    : checkDeletionGuard({
        deletes: removed.length,
        lastWrittenCount: lastWritten.size + unlisted,
        desiredCount: desired.length + unlisted,
        guard: input.guard,
        recentDeletes: input.recentDeletes ?? 0,
      });

  if (input.full && verdict === null && kept.length === 0 && awaiting.length === 0) {
    return { collection, action: "replace", reason: "full", upserts: desired, deletes: [], heldBack: null, kept };
  }

  // `--full` under a tripped guard (or with recent additions to keep) degrades to rewriting
  // every option and deleting only what may be deleted.
  const upserts: ServiceOption[] = [];
  const renames: Rename[] = [];
  for (const option of desired) {
    const others = (spellingsByKey.get(codeKey(option.name)) ?? []).filter((name) => name !== option.name);
    if (others.length > 0) {
      renames.push({ from: others, option });
      continue;
    }
    const before = lastWritten.get(option.name);
    if (input.full || before === undefined || !serviceLabelsEqual(before, option.label)) upserts.push(option);
  }
  const free = awaiting.length === 0 ? removed : removed.filter((name) => !awaits(name));
  const guarded = verdict === null ? { deletes: free, held: [] } : splitApprovedDeletions(free, approvedNames);
  const deletes = guarded.deletes;
  const heldNames = [...awaiting, ...guarded.held];
  const heldBack =
    heldNames.length === 0 ? null : { names: heldNames, reason: verdict ?? input.awaitingReview?.reason ?? "awaiting review" };
  if (upserts.length === 0 && deletes.length === 0 && renames.length === 0) {
    return { collection, action: "none", reason: "unchanged", upserts: [], deletes: [], heldBack, kept };
  }
  return {
    collection,
    action: "update",
    reason: input.full ? "full" : "changed",
    upserts,
    deletes,
    heldBack,
    kept,
    ...(renames.length > 0 ? { renames } : {}),
  };
}
