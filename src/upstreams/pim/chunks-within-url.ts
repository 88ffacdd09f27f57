/**
 * Consecutive slices of `items`, each of at most `maxCount` items and, where `urlBytesOf` of the
 * slice allows, at most `maxBytes`: an item is added to the current slice while the URL stays
 * within the bound. An item whose URL alone is over the bound goes alone (it cannot be split;
 * the upstream decides). Pure.
 */
export function chunksWithinUrl<T>(
  items: readonly T[],
  limits: { readonly maxCount: number; readonly maxBytes: number },
  urlBytesOf: (chunk: readonly T[]) => number,
): T[][] {
  if (!Number.isInteger(limits.maxCount) || limits.maxCount < 1)
    throw new Error(`chunk size must be a positive integer, got ${limits.maxCount}`);
  const chunks: T[][] = [];
  let current: T[] = [];
  for (const item of items) {
    const next = [...current, item];
    if (current.length > 0 && (next.length > limits.maxCount || urlBytesOf(next) > limits.maxBytes)) {
      chunks.push(current);
      current = [item];
    } else current = next;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
