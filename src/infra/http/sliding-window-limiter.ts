import { setTimeout as sleep } from "node:timers/promises";
import { BudgetPaused } from "./budget-paused.js";

/** Call once the request's answer arrived (or it failed): from then on it ages out of the window. */
export type SettleRequest = () => void;

/**
 * At most `limit` requests in any window of `windowMs`, shared by every caller of one upstream
 * in this process. A request counts from the moment it may start until `windowMs` after its
 * answer arrived: the upstream counts it somewhere in between (on arrival), and a request
 * counted only from its start here could, after event-loop lag or a slow socket, arrive late
 * enough to be the 101st in the upstream's second (measured: windows of 101 arrivals in
 * 880 ms, each costing a 429 and a one-second pause). A sliding window rather than a token
 * bucket because a full bucket plus its refill would burst to twice the budget. `pauseFor` lets
 * a 429's Retry-After hold back every caller, not just one.
 *
 * A limiter given `maxPauseMs` (`http.max_retry_after_ms`) pauses for at most that long, and a
 * caller that would still have to wait longer for a pause (a clock that went back here; in
 * Redis, a pause left by an older version) is refused with `BudgetPaused` rather than held: a
 * longer Retry-After is the job queue's to wait for, not a worker slot's.
 */
export interface RateLimiter {
  /**
   * Rejects with `BudgetPaused` when the budget is paused for longer than the limiter's `maxPauseMs`.
   * `urgent`: a small job's request, which a shared budget lets ahead (request-urgency.ts); a
   * process' own window takes requests in turn whatever their urgency.
   */
  acquire(signal?: AbortSignal, urgent?: boolean): Promise<SettleRequest>;
  /** Holds every caller back for `ms`, or for the limiter's `maxPauseMs` when that is shorter. */
  pauseFor(ms: number): void;
}

export function createSlidingWindowLimiter(options: {
  readonly limit: number;
  readonly windowMs?: number;
  /** Added to the window, for upstreams that count with a coarser clock. */
  readonly marginMs?: number;
  /** The longest pause kept and waited for (`http.max_retry_after_ms`); none when left out. */
  readonly maxPauseMs?: number;
  readonly now?: () => number;
}): RateLimiter {
  if (!Number.isFinite(options.limit) || options.limit < 1) throw new Error(`rate limit must be at least 1, got ${options.limit}`);
  const windowMs = (options.windowMs ?? 1000) + (options.marginMs ?? 0);
  const now = options.now ?? (() => performance.now());
  /** When each request of the window was answered, oldest first. */
  const settled: number[] = [];
  let inFlight = 0;
  let pausedUntil = 0;
  // Wakes waiters when a request settles (the window may have room, or a timer may now be due).
  let settledSignal = deferred();
  // Callers queue up so that the order of acquisition is the order of arrival.
  let tail: Promise<unknown> = Promise.resolve();

  /** A slot handed out: `settle` once answered; `giveBack` if the request was never sent. */
  function takeSlot(): { settle: SettleRequest; giveBack: () => void } {
    inFlight += 1;
    let done = false;
    const finish = (answered: boolean): void => {
      if (done) return;
      done = true;
      inFlight -= 1;
      if (answered) settled.push(now());
      settledSignal.resolve();
      settledSignal = deferred();
    };
    return { settle: () => finish(true), giveBack: () => finish(false) };
  }

  async function waitForSlot(signal?: AbortSignal): Promise<{ settle: SettleRequest; giveBack: () => void }> {
    for (;;) {
      signal?.throwIfAborted();
      const t = now();
      while (settled.length > 0 && (settled[0] ?? 0) <= t - windowMs) settled.shift();
      const waitPause = pausedUntil - t;
      if (options.maxPauseMs !== undefined && waitPause > options.maxPauseMs)
        throw new BudgetPaused(Math.ceil(waitPause), options.maxPauseMs);
      const full = inFlight + settled.length >= options.limit;
      if (!full && waitPause <= 0) return takeSlot();
      if (full && settled.length === 0 && waitPause <= 0) {
        // Every slot is in flight: room starts to come back only when one of them settles.
        await raceAbort(settledSignal.promise, signal);
        continue;
      }
      // Otherwise a point in time frees room: the pause's end, or the oldest answered request
      // leaving the window (a settle meanwhile changes neither).
      const waitWindow = full ? (settled[0] ?? t) + windowMs - t : 0;
      await sleep(Math.ceil(Math.max(waitPause, waitWindow)), undefined, { signal });
    }
  }

  return {
    acquire(signal) {
      const turn = tail.then(() => waitForSlot(signal));
      tail = turn.catch(() => undefined);
      if (!signal) return turn.then((slot) => slot.settle);
      // An aborted caller leaves the line at once; if its turn still comes, the slot goes back.
      return leaveOnAbort(turn, signal);
    },
    pauseFor(ms) {
      pausedUntil = Math.max(pausedUntil, now() + Math.min(ms, options.maxPauseMs ?? ms));
    },
  };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("aborted");
}

function raceAbort(promise: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return promise;
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function leaveOnAbort(turn: Promise<{ settle: SettleRequest; giveBack: () => void }>, signal: AbortSignal): Promise<SettleRequest> {
  return new Promise<SettleRequest>((resolve, reject) => {
    let left = false;
    const onAbort = (): void => {
      left = true;
      reject(abortReason(signal));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    turn
      .then((slot) => {
        if (left) slot.giveBack();
        else resolve(slot.settle);
      }, reject)
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}
