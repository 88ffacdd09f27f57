import { setTimeout as sleep } from "node:timers/promises";

/**
 * At most `limit` request starts in any window of `windowMs`, shared by every caller of one
 * upstream in this process. A sliding window (rather than a token bucket) because upstreams
 * count "requests per second" over any second: a full bucket plus its refill would burst to
 * twice the budget. `pauseFor` lets a 429's Retry-After hold back every caller, not just one.
 */
export interface RateLimiter {
  acquire(signal?: AbortSignal): Promise<void>;
  pauseFor(ms: number): void;
}

export function createSlidingWindowLimiter(options: {
  readonly limit: number;
  readonly windowMs?: number;
  /**
   * Added to the window: a request counted here at t=0 may reach the upstream a few
   * milliseconds later (new socket, event-loop lag), and the upstream counts arrivals.
   */
  readonly marginMs?: number;
  readonly now?: () => number;
}): RateLimiter {
  if (!Number.isFinite(options.limit) || options.limit < 1) throw new Error(`rate limit must be at least 1, got ${options.limit}`);
  const windowMs = (options.windowMs ?? 1000) + (options.marginMs ?? 40);
  const now = options.now ?? (() => performance.now());
  const starts: number[] = [];
  let pausedUntil = 0;
  // Callers queue up so that the order of acquisition is the order of arrival.
  let tail: Promise<void> = Promise.resolve();

  async function waitForSlot(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const t = now();
      while (starts.length > 0 && (starts[0] ?? 0) <= t - windowMs) starts.shift();
      const waitPause = pausedUntil - t;
      const waitWindow = starts.length >= options.limit ? (starts[0] ?? t) + windowMs - t : 0;
      const waitMs = Math.max(waitPause, waitWindow);
      if (waitMs <= 0) {
        starts.push(t);
        return;
      }
      await sleep(Math.ceil(waitMs), undefined, { signal });
    }
  }

  return {
    acquire(signal) {
      const turn = tail.then(() => waitForSlot(signal));
      tail = turn.catch(() => undefined);
      if (!signal) return turn;
      // An aborted caller leaves the line at once; when its turn comes it takes no slot.
      return leaveOnAbort(turn, signal);
    },
    pauseFor(ms) {
      pausedUntil = Math.max(pausedUntil, now() + ms);
    },
  };
}

function leaveOnAbort(turn: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    turn.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
