import { codeKey } from "./code-key.js";

/**
 * Keeps the first item for each code, compared case-insensitively, in input order. Later
 * duplicates are dropped rather than merged: the PIM would reject them as the same code, so the
 * first one seen is the one it actually holds.
 */
export function firstByCode<T>(items: readonly T[], codeOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  const kept: T[] = [];
  for (const item of items) {
    const key = codeKey(codeOf(item));
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(item);
  }
  return kept;
}
