import type { PimFamily } from "../domain/pim-catalog.js";
import { codeKey } from "./code-key.js";
import { compareCodes } from "./compare-codes.js";

/**
 * Families become the service's groups, so a field belongs to every family that lists its
 * attribute. Returns a lookup from attribute code (case-insensitive) to sorted family codes.
 */
export function familyGroupsByAttribute(families: readonly PimFamily[]): (attribute: string) => string[] {
  const groups = new Map<string, Set<string>>();
  for (const family of families) {
    for (const attribute of family.attributes) {
      const key = codeKey(attribute);
      const codes = groups.get(key) ?? new Set<string>();
      codes.add(family.code);
      groups.set(key, codes);
    }
  }
  return (attribute) => [...(groups.get(codeKey(attribute)) ?? [])].sort(compareCodes);
}
