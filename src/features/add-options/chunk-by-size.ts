/**
 * Consecutive groups of items whose sizes add up to at most `cap` each, in order; an item larger
 * than `cap` gets a group of its own (never split: it is one request). Pure.
 */
export function chunkBySize<T>(items: readonly T[], sizeOf: (item: T) => number, cap: number): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    const itemSize = sizeOf(item);
    if (current.length > 0 && size + itemSize > cap) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += itemSize;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
