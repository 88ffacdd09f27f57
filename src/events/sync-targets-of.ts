import type { SyncTargets } from "../domain/sync-targets.js";
import { targetOfKey } from "./event-target.js";

/** The targeted sync's targets from the project's pending set (fields it does not know are left out). */
export function syncTargetsOf(keys: Iterable<string>): SyncTargets {
  const attributes: string[] = [];
  const referenceEntities: string[] = [];
  for (const key of keys) {
    const target = targetOfKey(key);
    if (target?.kind === "attribute") attributes.push(target.code);
    else if (target?.kind === "reference-entity") referenceEntities.push(target.code);
  }
  return { attributes: attributes.sort(), referenceEntities: referenceEntities.sort() };
}
