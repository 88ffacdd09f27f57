import { matchesFault, type FaultMatch } from "./fault-injector.js";

/**
 * Requests held until a test lets them go: a slow answer on a condition the test controls, where
 * a latency only makes it likely that something else happens first (on a busy machine the other
 * thing may come after the latency, and the test fails).
 */
export interface RequestGate {
  /** Requests held at the gate now. */
  readonly held: number;
  /** Resolves once `count` requests in all have been held here (those let by through `after` not counted); rejects after `timeoutMs`. */
  reached(count: number, timeoutMs: number): Promise<void>;
  /** Lets the held requests through, and every later one: the gate is gone. */
  open(): void;
}

export interface RequestGateOptions {
  /** Matching requests let through before the gate starts holding (a hold half-way); 0 when left out. */
  readonly after?: number;
}

export interface RequestGates {
  /** A gate for the requests `match` selects (as a fault selects them), held once admitted. */
  hold(match: FaultMatch, options?: RequestGateOptions): RequestGate;
  /** Used by the simulator: waits at every gate the request matches (at none: at once). */
  pass(method: string, path: string, query: URLSearchParams): Promise<void>;
  /** Opens every gate, for when the simulator closes. */
  openAll(): void;
}

interface ReachedWaiter {
  readonly count: number;
  readonly resolve: () => void;
  readonly timer: NodeJS.Timeout;
}

interface Gate extends RequestGate {
  readonly match: FaultMatch;
  /** Holds a matching request until the gate opens (or lets it by, while `after` lasts). */
  arrive(): Promise<void>;
}

export function createRequestGates(): RequestGates {
  const gates = new Set<Gate>();

  function createGate(match: FaultMatch, options: RequestGateOptions): Gate {
    let skip = options.after ?? 0;
    if (!Number.isInteger(skip) || skip < 0) throw new RangeError(`gate after must be a non-negative integer, got ${skip}`);
    let arrived = 0;
    let held = 0;
    let releaseAll: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => (releaseAll = resolve));
    const waiters = new Set<ReachedWaiter>();
    const gate: Gate = {
      match,
      get held() {
        return held;
      },
      reached(count, timeoutMs) {
        if (arrived >= count) return Promise.resolve();
        return new Promise<void>((resolve, reject) => {
          const waiter: ReachedWaiter = {
            count,
            resolve,
            timer: setTimeout(() => {
              waiters.delete(waiter);
              reject(new Error(`${arrived} of ${count} request(s) reached the gate within ${timeoutMs} ms`));
            }, timeoutMs),
          };
          waiters.add(waiter);
        });
      },
      open() {
        gates.delete(gate);
        releaseAll();
      },
      async arrive() {
        if (skip > 0) {
          skip -= 1;
          return;
        }
        arrived += 1;
        held += 1;
        for (const waiter of waiters) {
          if (arrived < waiter.count) continue;
          waiters.delete(waiter);
          clearTimeout(waiter.timer);
          waiter.resolve();
        }
        await opened;
        held -= 1;
      },
    };
    return gate;
  }

  return {
    hold(match, options = {}) {
      const gate = createGate(match, options);
      gates.add(gate);
      return gate;
    },
    async pass(method, path, query) {
      const matching = [...gates].filter((gate) => matchesFault(gate.match, method, path, query));
      await Promise.all(matching.map((gate) => gate.arrive()));
    },
    openAll() {
      for (const gate of [...gates]) gate.open();
    },
  };
}
