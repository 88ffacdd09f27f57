/** The most times in any window of `windowMs` (each time opens one): an upstream's "requests in any second". */
export function peakInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  for (let start = 0, end = 0; start < sorted.length; start += 1) {
    while (end < sorted.length && (sorted[end] ?? 0) < (sorted[start] ?? 0) + windowMs) end += 1;
    peak = Math.max(peak, end - start);
  }
  return peak;
}

/** The most intervals open at one moment (an interval ending as another starts does not overlap it). */
export function peakOverlap(intervals: readonly { readonly startedAt: number; readonly endedAt: number }[]): number {
  const events = intervals.flatMap((interval) => [
    { at: interval.startedAt, delta: 1 },
    { at: interval.endedAt, delta: -1 },
  ]);
  events.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let open = 0;
  let peak = 0;
  for (const event of events) {
    open += event.delta;
    peak = Math.max(peak, open);
  }
  return peak;
}
