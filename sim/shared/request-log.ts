/**
 * What a simulator remembers of each request, for tests and benchmarks to assert on. Credentials
 * are never kept: only the authorization scheme.
 */
export interface RecordedRequest {
  readonly method: string;
  /** Pathname without the query string. */
  readonly path: string;
  /** Query parameters; a repeated parameter keeps its first value. */
  readonly query: Readonly<Record<string, string>>;
  /** The route pattern that matched (`/api/rest/v1/attributes/:code`), or null for an unknown path. */
  readonly route: string | null;
  /** HTTP status sent; 0 when the connection was dropped on purpose. */
  readonly status: number;
  /** Epoch milliseconds (sub-millisecond precision) when the request arrived and was answered. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** `Bearer`, `Basic`, `Token`… or null when no Authorization header was sent. Never the token. */
  readonly authScheme: string | null;
  /** True when an injected fault answered instead of the simulator, or a paging fault edited the answer. */
  readonly fault: boolean;
}

export interface RequestLog {
  /** The live list: it grows as requests complete and empties in place on clear(). */
  readonly entries: RecordedRequest[];
  record(entry: RecordedRequest): void;
  clear(): void;
  /** Resolves with the first recorded request (already recorded or future) that matches. */
  waitFor(predicate: (request: RecordedRequest) => boolean, timeoutMs: number): Promise<RecordedRequest>;
  /** Fails every pending waitFor, for when the simulator closes. */
  rejectWaiters(reason: Error): void;
}

interface Waiter {
  readonly predicate: (request: RecordedRequest) => boolean;
  readonly resolve: (request: RecordedRequest) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export function createRequestLog(): RequestLog {
  const entries: RecordedRequest[] = [];
  const waiters = new Set<Waiter>();
  return {
    entries,
    record(entry) {
      entries.push(entry);
      for (const waiter of waiters) {
        if (!waiter.predicate(entry)) continue;
        waiters.delete(waiter);
        clearTimeout(waiter.timer);
        waiter.resolve(entry);
      }
    },
    clear() {
      entries.length = 0;
    },
    waitFor(predicate, timeoutMs) {
      const found = entries.find(predicate);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(waiter);
            reject(new Error(`no matching request within ${timeoutMs} ms (${entries.length} recorded)`));
          }, timeoutMs),
        };
        waiters.add(waiter);
      });
    },
    rejectWaiters(reason) {
      for (const waiter of waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(reason);
      }
      waiters.clear();
    },
  };
}
