/**
 * What a sync knows of a source's length when it decides what to read next:
 * - `no-read`: nothing to read from the PIM (units and currencies come with the structure);
 * - `unknown`: a list without a count (records: search_after, read one page after another);
 * - `counted`: the `items_count` an attribute's first page carried.
 */
export type SourceSize = { readonly kind: "no-read" } | { readonly kind: "unknown" } | { readonly kind: "counted"; readonly items: number };

const RANK: Record<SourceSize["kind"], number> = { "no-read": 0, unknown: 1, counted: 2 };

/**
 * Negative when `a` should be read before `b`. Sources that need no read go first: their writes
 * then overlap the PIM's reads instead of waiting for the service at the end. Lists without a
 * count next: they are read one page at a time, the longest chain a sync can have. Then counted
 * lists, largest first, so a long attribute's pages overlap the other work instead of ending the
 * run. Ties keep the given (catalogue) order: the sort is stable.
 */
export function compareReadingOrder(a: SourceSize, b: SourceSize): number {
  if (a.kind !== b.kind) return RANK[a.kind] - RANK[b.kind];
  if (a.kind === "counted" && b.kind === "counted") return b.items - a.items;
  return 0;
}
