import type { ConcurrencyLimiter } from "../../infra/http/concurrency-limiter.js";

/** A process' job slots, each freed slot going to the waiter of the lowest rank (see job-rank.ts). */
export interface RankedSlots extends ConcurrencyLimiter {
  /** Waits for a slot, served before every waiter of a higher rank (ties: first come). */
  acquireRanked(rank: number, signal?: AbortSignal): Promise<() => void>;
}

interface Waiter {
  readonly rank: number;
  readonly seq: number;
  readonly grant: () => void;
}

/**
 * A counting semaphore like createConcurrencyLimiter's, whose waiters are served by rank instead
 * of first come: the worker ranks a small job ahead of a full sync (job-rank.ts). `acquire` and
 * `run` (the Activation worker's) rank a waiter by the time it asked, as a job queued then would be.
 */
export function createRankedSlots(limit: number): RankedSlots {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`slot limit must be a positive integer, got ${limit}`);
  let active = 0;
  let seq = 0;
  const waiters: Waiter[] = [];

  function release(): void {
    let best = -1;
    for (let i = 0; i < waiters.length; i += 1) {
      const w = waiters[i] as Waiter;
      const b = waiters[best];
      if (b === undefined || w.rank < b.rank || (w.rank === b.rank && w.seq < b.seq)) best = i;
    }
    if (best < 0) {
      active -= 1;
      return;
    }
    const [next] = waiters.splice(best, 1);
    next?.grant();
  }

  async function take(rank: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (active < limit) {
      active += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        rank,
        seq: seq++,
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        const index = waiters.indexOf(waiter);
        if (index >= 0) waiters.splice(index, 1);
        reject(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
      };
      waiters.push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  async function acquireRanked(rank: number, signal?: AbortSignal): Promise<() => void> {
    await take(rank, signal);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      release();
    };
  }

  return {
    acquireRanked,
    acquire: (signal) => acquireRanked(Date.now(), signal),
    async run(task, signal) {
      const done = await acquireRanked(Date.now(), signal);
      try {
        return await task();
      } finally {
        done();
      }
    },
    get active() {
      return active;
    },
    get free() {
      return limit - active;
    },
    get waiting() {
      return waiters.length;
    },
  };
}
