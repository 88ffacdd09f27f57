import type { UnwrittenCollection } from "../../core/domain/unwritten-collection.js";
import { targetOfKey } from "./event-target.js";

export interface TargetsAfterRun {
  /** Every collection they name was written or found unchanged: done with. */
  readonly done: readonly string[];
  /** A collection they name was left unwritten by a failure a retry may get past. */
  readonly retry: readonly string[];
  /** Every failure of theirs was refused for good: no retry of the events will help (the schedule reports it). */
  readonly refused: readonly string[];
}

/**
 * Sorts the pending-set keys a targeted sync took by what the run left unwritten: an attribute or
 * option target by the collections its attribute derives, a reference-entity target by its
 * records' collections. A key pim-sync does not know is done (nothing reads it). Pure.
 */
export function targetsLeftUnwritten(keys: Iterable<string>, unwritten: readonly UnwrittenCollection[]): TargetsAfterRun {
  const done: string[] = [];
  const retry: string[] = [];
  const refused: string[] = [];
  for (const key of keys) {
    const target = targetOfKey(key);
    const failed =
      target === null
        ? []
        : unwritten.filter((collection) =>
            target.kind === "reference-entity"
              ? collection.referenceEntity?.toLowerCase() === target.code.toLowerCase()
              : collection.attribute.toLowerCase() === (target.kind === "option" ? target.attribute : target.code).toLowerCase(),
          );
    if (failed.length === 0) done.push(key);
    else if (failed.every((collection) => collection.permanent)) refused.push(key);
    else retry.push(key);
  }
  return { done, retry, refused };
}
