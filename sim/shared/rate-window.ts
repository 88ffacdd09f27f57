/**
 * A sliding one-second window ("more than N requests in any 1 s window"). It keeps the times of
 * the requests it admitted; rejected requests are not counted, so a client that backs off gets
 * through again as soon as the oldest admitted request leaves the window.
 */
export interface RateWindow {
  /** Admits a request if the window has room, and counts it. */
  tryAcquire(): boolean;
}

export function createRateWindow(limit: number, windowMs = 1000, now: () => number = () => performance.now()): RateWindow {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`rate limit must be a positive integer, got ${limit}`);
  const admitted: number[] = [];
  return {
    tryAcquire() {
      const at = now();
      while (admitted.length > 0 && (admitted[0] ?? at) <= at - windowMs) admitted.shift();
      if (admitted.length >= limit) return false;
      admitted.push(at);
      return true;
    },
  };
}
