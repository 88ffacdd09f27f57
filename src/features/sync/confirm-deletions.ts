import { codeKey } from "../../core/derive/code-key.js";
import type { OptionSource } from "../../core/domain/option-collection.js";
import type { PimAttributeOption, PimRecord } from "../../core/domain/pim-catalog.js";

/** The single-item reads the check needs (both answer null for "no such item"). */
export interface PimItemReader {
  getAttributeOption(attribute: string, code: string, signal?: AbortSignal): Promise<PimAttributeOption | null>;
  getRecord(entity: string, code: string, signal?: AbortSignal): Promise<PimRecord | null>;
}

export interface DeletionCheck {
  /** The names the PIM still has among these (an empty answer: every one is confirmed gone). */
  namesStillInPim(names: readonly string[]): Promise<string[]>;
}

/**
 * Asks the PIM, one item at a time, whether options planned for deletion are really gone. A list
 * can end early without any sign a client could see (a search_after list has no count), and
 * a name missing from a short list would be deleted; an item the PIM still serves proves the list
 * was incomplete. Returns the names the PIM still has (the caller then writes nothing). Answers
 * are cached per source, since sibling collections plan the same deletions.
 */
export function createDeletionCheck(
  pim: PimItemReader,
  source: OptionSource,
  signal?: AbortSignal,
  confirmedGone: readonly string[] = [],
): DeletionCheck {
  // Options the PIM just answered 404 for, one by one (an option-level targeted sync): that
  // answer is the confirmation, not asked twice.
  const known = new Map<string, Promise<boolean>>(confirmedGone.map((name) => [codeKey(name), Promise.resolve(false)]));
  const stillInPim = (name: string): Promise<boolean> => {
    // The PIM compares codes case-insensitively: one answer per code, whatever its spelling.
    let answer = known.get(codeKey(name));
    if (answer === undefined) {
      answer = askPimWhetherPresent(pim, source, name, signal);
      known.set(codeKey(name), answer);
    }
    return answer;
  };
  return {
    async namesStillInPim(names: readonly string[]): Promise<string[]> {
      const present = await Promise.all(names.map(stillInPim));
      return names.filter((_, index) => present[index] === true);
    },
  };
}

/**
 * Whether the PIM still serves `name` in `source`. Exhaustive over the kinds of source: a kind
 * added to OptionSource without its case here does not compile, rather than falling through to
 * "gone" and confirming every deletion of it (test/unit/features/sync/confirm-deletions.test.ts).
 */
function askPimWhetherPresent(pim: PimItemReader, source: OptionSource, name: string, signal: AbortSignal | undefined): Promise<boolean> {
  switch (source.kind) {
    case "attribute-options":
      return pim.getAttributeOption(source.attribute, name, signal).then((item) => item !== null);
    case "reference-entity-records":
      return pim.getRecord(source.referenceEntity, name, signal).then((item) => item !== null);
    case "measurement-units":
    case "currencies":
      // Read whole with the structure, never a list that can end early: nothing to confirm.
      return Promise.resolve(false);
    default:
      return unknownSourceKind(source);
  }
}

function unknownSourceKind(source: never): never {
  throw new Error(`no deletion check for the option source ${JSON.stringify(source)}`);
}
