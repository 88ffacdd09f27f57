/**
 * Round robin per project at each acquisition. Callers of one budget wait in one line per
 * project; the budget is asked for one caller at a time, taking the projects in turn. So while a
 * large sync keeps its project's line full, a small job of another project waits for at most
 * one grant per other waiting project, not for the large sync's whole backlog.
 */
export interface FairTurns<T> {
  take(project: string, signal?: AbortSignal): Promise<T>;
  /** Callers waiting, in every line. */
  readonly waiting: number;
}

interface Waiter<T> {
  readonly signal: AbortSignal | undefined;
  readonly resolve: (value: T) => void;
  readonly reject: (error: unknown) => void;
  settled: boolean;
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("aborted");
}

/** `grant` is asked once per caller, never twice at the same time; `giveBack` returns what an aborted caller no longer wants. */
export function createFairTurns<T>(grant: (signal?: AbortSignal) => Promise<T>, giveBack: (value: T) => void): FairTurns<T> {
  const lines = new Map<string, Waiter<T>[]>();
  /** Projects with someone waiting, in the order their turns come. */
  const order: string[] = [];
  let pumping = false;
  let waiting = 0;

  function nextWaiter(): Waiter<T> | undefined {
    while (order.length > 0) {
      const project = order.shift() ?? "";
      const line = lines.get(project) ?? [];
      const waiter = line.shift();
      // The project goes to the back of the round when it still has callers waiting.
      if (line.length > 0) order.push(project);
      else lines.delete(project);
      if (waiter && !waiter.settled) return waiter;
    }
    return undefined;
  }

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      for (let waiter = nextWaiter(); waiter; waiter = nextWaiter()) {
        try {
          const value = await grant(waiter.signal);
          if (waiter.settled) giveBack(value);
          else {
            waiter.settled = true;
            waiter.resolve(value);
          }
        } catch (error) {
          if (!waiter.settled) {
            waiter.settled = true;
            waiter.reject(error);
          }
        }
      }
    } finally {
      pumping = false;
    }
  }

  return {
    take(project, signal) {
      signal?.throwIfAborted();
      return new Promise<T>((resolve, reject) => {
        const waiter: Waiter<T> = {
          signal,
          resolve: (value) => {
            waiting -= 1;
            signal?.removeEventListener("abort", onAbort);
            resolve(value);
          },
          reject: (error) => {
            waiting -= 1;
            signal?.removeEventListener("abort", onAbort);
            reject(error);
          },
          settled: false,
        };
        // An aborted caller leaves its line at once; if its grant is under way, what it brings goes back.
        const onAbort = (): void => {
          if (waiter.settled) return;
          waiter.settled = true;
          waiter.reject(abortReason(signal as AbortSignal));
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        waiting += 1;
        const line = lines.get(project);
        if (line) line.push(waiter);
        else {
          lines.set(project, [waiter]);
          order.push(project);
        }
        void pump();
      });
    },
    get waiting() {
      return waiting;
    },
  };
}
