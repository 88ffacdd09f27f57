/**
 * What pim-sync will derive from a catalogue, computed with its own pure core (same scope, same
 * naming), so the generated service lists exactly the collections a sync looks for and the
 * minimal request count is taken over exactly the sources a sync reads.
 */
import type { CollectionSpec } from "../../src/core/domain/option-collection.js";
import { DEFAULT_NAMING, deriveCollectionSpecs, resolveProjectScope, type ProjectScope } from "../../src/core/derive/index.js";
import type { SimCatalog } from "../../sim/catalog/catalog-file.js";
import { toPimStructure } from "./to-pim-structure.js";

export interface DerivedCatalog {
  readonly scope: ProjectScope;
  readonly specs: readonly CollectionSpec[];
}

/** No project filters: the benchmark syncs every channel and every enabled locale. */
export function deriveCatalog(pim: SimCatalog["pim"]): DerivedCatalog {
  const structure = toPimStructure(pim);
  const { scope, problems } = resolveProjectScope(structure, {});
  if (problems.length > 0) throw new Error(`generated catalogue does not resolve: ${problems.join("; ")}`);
  const derived = deriveCollectionSpecs(structure, scope, DEFAULT_NAMING);
  if (derived.problems.length > 0) throw new Error(`generated catalogue derives with problems: ${derived.problems.join("; ")}`);
  return { scope, specs: derived.specs };
}

export function deriveServiceCollectionNames(pim: SimCatalog["pim"]): string[] {
  return deriveCatalog(pim).specs.map((spec) => spec.name);
}
