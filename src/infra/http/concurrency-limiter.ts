/**
 * A counting semaphore: at most `limit` holders at once (Akeneo allows 4 requests in flight per
 * connection). Waiters are served first come, first served.
 */
export interface ConcurrencyLimiter {
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Takes a slot held beyond one call (a worker's job slot); the returned release is idempotent. */
  acquire(signal?: AbortSignal): Promise<() => void>;
  readonly active: number;
  /** Slots no one holds (0 while anyone waits). */
  readonly free: number;
  /** Callers waiting for a slot. */
  readonly waiting: number;
}

export function createConcurrencyLimiter(limit: number): ConcurrencyLimiter {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency limit must be a positive integer, got ${limit}`);
  let active = 0;
  const waiters: Array<() => void> = [];

  function release(): void {
    const next = waiters.shift();
    if (next) next();
    else active -= 1;
  }

  async function acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (active < limit) {
      active += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const index = waiters.indexOf(grant);
        if (index >= 0) waiters.splice(index, 1);
        reject(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
      };
      waiters.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  return {
    async run(task, signal) {
      await acquire(signal);
      try {
        return await task();
      } finally {
        release();
      }
    },
    async acquire(signal) {
      await acquire(signal);
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        release();
      };
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
