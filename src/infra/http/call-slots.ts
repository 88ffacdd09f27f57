/**
 * Calls in flight, bounded: what an HTTP client needs of a concurrency budget. A process-local
 * semaphore (src/infra/http/concurrency-limiter.ts) is one; a budget shared through Redis is another.
 */
export interface CallSlots {
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/** A slot taken for one call; the returned function gives it back (idempotent). */
export interface SlotGate {
  acquire(signal?: AbortSignal): Promise<() => void>;
}

export function slotsOf(gate: SlotGate): CallSlots {
  return {
    async run(task, signal) {
      const release = await gate.acquire(signal);
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

/** Every gate in turn, always in the order given (so two callers never hold one each of two and wait for the other). */
export function allSlotsOf(gates: readonly SlotGate[]): CallSlots {
  return slotsOf({
    async acquire(signal) {
      const releases: Array<() => void> = [];
      try {
        for (const gate of gates) releases.push(await gate.acquire(signal));
      } catch (error) {
        for (const release of releases.reverse()) release();
        throw error;
      }
      return () => {
        for (const release of releases.reverse()) release();
      };
    },
  });
}
