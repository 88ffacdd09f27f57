import type { OptionTargets, SyncTargets } from "../domain/sync-targets.js";
import { targetOfKey } from "./event-target.js";

/**
 * The targeted sync's targets from the project's pending set (fields it does not know are left
 * out). An attribute is read whole when an attribute event named it, or when more than
 * `optionReadLimit` of its options are pending (a burst that large, an import or a bulk edit,
 * costs fewer requests as the list's pages); otherwise each pending option is read alone.
 */
export function syncTargetsOf(keys: Iterable<string>, optionReadLimit: number): SyncTargets {
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
    if (whole.has(attribute)) continue;
    if (codes.size > optionReadLimit) whole.add(attribute);
    else options.push({ attribute, codes: [...codes].sort() });
  }
  options.sort((a, b) => (a.attribute < b.attribute ? -1 : a.attribute > b.attribute ? 1 : 0));
  return { attributes: [...whole].sort(), referenceEntities: [...referenceEntities].sort(), options };
}
