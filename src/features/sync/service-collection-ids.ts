/**
 * The service's collections of a project by name, and the names listed more than once: which of
 * two same-named collections a write should reach cannot be known, so neither is touched.
 */
export function serviceCollectionIds(inService: readonly { readonly id: number; readonly name: string }[]): {
  readonly idByName: ReadonlyMap<string, number>;
  readonly duplicated: ReadonlySet<string>;
} {
  const idByName = new Map<string, number>();
  const duplicated = new Set<string>();
  for (const collection of inService) {
    if (idByName.has(collection.name)) duplicated.add(collection.name);
    idByName.set(collection.name, collection.id);
  }
  return { idByName, duplicated };
}
