import type { OptionTargets, SyncTargets } from "../../core/domain/sync-targets.js";
import { targetOfKey } from "./event-target.js";

/**
 * The targeted sync's targets from the project's pending set (fields it does not know are left
 * out). An attribute is read whole when an attribute event named it; otherwise its pending
 * options are named, and the sync reads them alone or reads the list, whichever costs fewer
 * requests (src/features/sync/reads-options-alone.ts: it knows the list's size, this does not).
 */
export function syncTargetsOf(keys: Iterable<string>): SyncTargets {
  const whole = new Set<string>();
  const referenceEntities = new Set<string>();
  const optionsByAttribute = new Map<string, Set<string>>();
  for (const key of keys) {
    const target = targetOfKey(key);
    if (target?.kind === "attribute") whole.add(target.code);
    else if (target?.kind === "reference-entity") referenceEntities.add(target.code);
    else if (target?.kind === "option") {
      const codes = optionsByAttribute.get(target.attribute) ?? new Set<string>();
      codes.add(target.code);
      optionsByAttribute.set(target.attribute, codes);
    }
  }
  const options: OptionTargets[] = [];
  for (const [attribute, codes] of optionsByAttribute) {
    if (!whole.has(attribute)) options.push({ attribute, codes: [...codes].sort() });
  }
  options.sort((a, b) => (a.attribute < b.attribute ? -1 : a.attribute > b.attribute ? 1 : 0));
  return { attributes: [...whole].sort(), referenceEntities: [...referenceEntities].sort(), options };
}
