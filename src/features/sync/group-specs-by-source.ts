import type { CollectionSpec, OptionSource } from "../../core/domain/option-collection.js";
import { optionSourceKey } from "../../core/domain/option-collection.js";
import type { MissingCollection } from "./sync-report.js";

/** The collections fed by one option source: the source is read once for all of them. */
export interface SourceGroup {
  readonly source: OptionSource;
  readonly specs: CollectionSpec[];
}

/**
 * Groups the derived collections by the source of their options, in derivation order. A
 * collection the service does not have is reported missing (pim-sync never creates one); one the
 * service lists twice is left out (its failure is reported where duplicates are found).
 */
export function groupSpecsBySource(
  specs: readonly CollectionSpec[],
  inService: { readonly idByName: ReadonlyMap<string, number>; readonly duplicated: ReadonlySet<string> },
): { readonly groups: SourceGroup[]; readonly missing: MissingCollection[] } {
  const missing: MissingCollection[] = [];
  const bySource = new Map<string, SourceGroup>();
  for (const spec of specs) {
    if (!inService.idByName.has(spec.name)) {
      missing.push({ collection: spec.name, field: spec.name, attribute: spec.attribute });
      continue;
    }
    if (inService.duplicated.has(spec.name)) continue;
    const key = optionSourceKey(spec.source);
    const group = bySource.get(key) ?? { source: spec.source, specs: [] };
    group.specs.push(spec);
    bySource.set(key, group);
  }
  return { groups: [...bySource.values()], missing };
}
