/**
 * What an upstream saw at its busiest, from its simulator's request log: the budgets are counted
 * where the upstream counts them (arrivals, and requests open at its end), not where the client
 * believes it sent them.
 */

/** The most times in any window of `windowMs` (each time opens one): an upstream's "requests in any second". */
export function peakInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  for (let start = 0, end = 0; start < sorted.length; start += 1) {
    const opened = sorted[start] ?? 0;
    while (end < sorted.length && (sorted[end] ?? 0) < opened + windowMs) end += 1;
    peak = Math.max(peak, end - start);
  }
  return peak;
}

/** The most intervals open at one moment; one ending as another starts does not overlap it. */
export function peakOverlap(intervals: readonly { readonly startedAt: number; readonly endedAt: number }[]): number {
  const edges = intervals.flatMap((interval) => [
    { at: interval.startedAt, delta: 1 },
    { at: interval.endedAt, delta: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let open = 0;
  let peak = 0;
  for (const edge of edges) {
    open += edge.delta;
    peak = Math.max(peak, open);
  }
  return peak;
}
