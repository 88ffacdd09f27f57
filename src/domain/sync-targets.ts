import type { CollectionSpec } from "./option-collection.js";

/**
 * What a targeted sync reconciles (src/events/): every collection derived from these attributes,
 * and every collection whose options are these reference entities' records. Codes compare
 * case-insensitively, as the PIM compares them.
 */
export interface SyncTargets {
  readonly attributes: readonly string[];
  readonly referenceEntities: readonly string[];
}

export function isEmptyTargets(targets: SyncTargets): boolean {
  return targets.attributes.length === 0 && targets.referenceEntities.length === 0;
}

/** Whether a targeted sync reconciles this collection. */
export function specIsTargeted(spec: CollectionSpec, targets: SyncTargets): boolean {
  const attribute = spec.attribute.toLowerCase();
  if (targets.attributes.some((code) => code.toLowerCase() === attribute)) return true;
  if (spec.source.kind !== "reference-entity-records") return false;
  const entity = spec.source.referenceEntity.toLowerCase();
  return targets.referenceEntities.some((code) => code.toLowerCase() === entity);
}
