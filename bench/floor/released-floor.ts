/**
 * The floor of one budget whose work arrives over time (projects whose scheduled syncs start at
 * spread offsets): a request cannot be served before its project's sync is released, and the
 * budget serves `ratePerSecond`. For work sorted by release, whatever is released at or after the
 * k-th release still needs `its requests / rate` from then on, so
 *
 *   floor = max over k of ( release_k + requests released at or after release_k / rate )
 *
 * With every release at 0 it is the plain floor (requests / rate). Like compute-floor.ts, a lower
 * bound: it ignores that a sync's requests follow one another.
 */
export interface ReleasedWork {
  /** Seconds after the fleet's start when this work may begin. */
  readonly releaseS: number;
  readonly requests: number;
}

export function releasedFloorSeconds(work: readonly ReleasedWork[], ratePerSecond: number): number {
  if (!(ratePerSecond > 0)) throw new RangeError(`the rate must be positive, got ${ratePerSecond}`);
  const sorted = [...work].sort((a, b) => a.releaseS - b.releaseS);
  let remaining = sorted.reduce((sum, item) => sum + item.requests, 0);
  let floor = remaining / ratePerSecond;
  for (const item of sorted) {
    floor = Math.max(floor, item.releaseS + remaining / ratePerSecond);
    remaining -= item.requests;
  }
  return floor;
}
