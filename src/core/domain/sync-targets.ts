import type { CollectionSpec } from "./option-collection.js";

/** Options of one attribute a targeted sync reads one by one instead of the attribute's list. */
export interface OptionTargets {
  readonly attribute: string;
  readonly codes: readonly string[];
}

/**
 * What a targeted sync reconciles (src/features/events/): every collection derived from these attributes,
 * and every collection whose options are these reference entities' records. `attributes` are
 * read whole (definition and every option); `options` name single options of other attributes:
 * only the attribute's definition and those options are read. Codes compare case-insensitively,
 * as the PIM compares them.
 */
export interface SyncTargets {
  readonly attributes: readonly string[];
  readonly referenceEntities: readonly string[];
  readonly options: readonly OptionTargets[];
  /**
   * Only these collections (by name), of those the other targets name; with no other target, the
   * collections of these names wherever they derive from (an admin's resync of one collection:
   * the whole structure is read to find it, then only its options).
   */
  readonly collections?: readonly string[];
}

/** Whether the targets name collections only (no attribute, option or reference entity). */
export function namesCollectionsOnly(targets: SyncTargets): boolean {
  return (
    targets.collections !== undefined &&
    targets.attributes.length === 0 &&
    targets.referenceEntities.length === 0 &&
    targets.options.length === 0
  );
}

export function isEmptyTargets(targets: SyncTargets): boolean {
  return (
    targets.attributes.length === 0 &&
    targets.referenceEntities.length === 0 &&
    targets.options.length === 0 &&
    (targets.collections?.length ?? 0) === 0
  );
}

/** Every attribute whose definition a targeted sync reads: the whole ones and those of single options. */
export function targetedAttributes(targets: SyncTargets): string[] {
  const codes = new Map<string, string>();
  for (const code of [...targets.attributes, ...targets.options.map((target) => target.attribute)])
    if (!codes.has(code.toLowerCase())) codes.set(code.toLowerCase(), code);
  return [...codes.values()];
}

/** The options named alone for this attribute, or undefined when it is read whole or not targeted. */
export function optionTargetsOf(targets: SyncTargets, attribute: string): readonly string[] | undefined {
  const key = attribute.toLowerCase();
  if (targets.attributes.some((code) => code.toLowerCase() === key)) return undefined;
  return targets.options.find((target) => target.attribute.toLowerCase() === key)?.codes;
}

/** Whether a targeted sync reconciles this collection. */
export function specIsTargeted(spec: CollectionSpec, targets: SyncTargets): boolean {
  if (targets.collections !== undefined && !targets.collections.includes(spec.name)) return false;
  if (namesCollectionsOnly(targets)) return true;
  const attribute = spec.attribute.toLowerCase();
  if (targetedAttributes(targets).some((code) => code.toLowerCase() === attribute)) return true;
  if (spec.source.kind !== "reference-entity-records") return false;
  const entity = spec.source.referenceEntity.toLowerCase();
  return targets.referenceEntities.some((code) => code.toLowerCase() === entity);
}
