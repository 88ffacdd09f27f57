/**
 * Injected faults, shared by both simulators: "answer the next N matching requests with this
 * status / body / Retry-After, after this delay, or drop the connection". A fault takes the place
 * of the simulator's own answer, so it fires before authentication and budgets.
 */
export interface FaultMatch {
  /** Case-insensitive; any method when left out. */
  readonly method?: string;
  /** Exact pathname, or a RegExp tested against the pathname; any path when left out. */
  readonly path?: string | RegExp;
  /**
   * Query parameters the request must carry with these values (`true`: present, any value), so a
   * fault can start mid-list (`{page: "3"}`, a search_after cursor); any query when left out.
   */
  readonly query?: Readonly<Record<string, string | true>>;
}

export interface FaultSpec {
  readonly status: number;
  /** How many matching requests get the fault; 1 when left out. */
  readonly times?: number;
  /** Matching requests answered normally before the fault fires (a failure half-way); 0 when left out. */
  readonly after?: number;
  /** Sent as `Retry-After` only when a number: a 429 without the header is a case clients must handle. */
  readonly retryAfterSeconds?: number | null;
  /** Reply body (JSON); the simulator's usual error body for the status when left out. */
  readonly body?: unknown;
  /** Wait before answering; longer than a client's timeout makes the request hang for that client. */
  readonly delayMs?: number;
  /** Close the socket instead of answering (after delayMs). */
  readonly dropConnection?: boolean;
  /** Extra reply headers, e.g. a `Location` for a 3xx (a proxy's redirect). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ArmedFault {
  readonly status: number;
  readonly retryAfterSeconds: number | null;
  readonly body: unknown;
  readonly delayMs: number;
  readonly dropConnection: boolean;
  readonly headers: Readonly<Record<string, string>>;
}

export interface FaultInjector {
  failNext(match: FaultMatch, fault: FaultSpec): void;
  clear(): void;
  /** Faults still armed (sum of remaining times), so a test can check that all of them fired. */
  pending(): number;
  /** Used by the simulator: the fault for this request, if one is armed, consuming one use. */
  take(method: string, path: string, query?: URLSearchParams): ArmedFault | undefined;
}

interface Entry {
  readonly match: FaultMatch;
  readonly fault: ArmedFault;
  remaining: number;
  /** Matching requests still to let through before this fault fires. */
  skip: number;
}

export function createFaultInjector(): FaultInjector {
  let entries: Entry[] = [];
  return {
    failNext(match, spec) {
      const times = spec.times ?? 1;
      if (!Number.isInteger(times) || times < 1) throw new RangeError(`fault times must be a positive integer, got ${times}`);
      const after = spec.after ?? 0;
      if (!Number.isInteger(after) || after < 0) throw new RangeError(`fault after must be a non-negative integer, got ${after}`);
      if (!Number.isInteger(spec.status) || spec.status < 100 || spec.status > 599) {
        throw new RangeError(`fault status must be an HTTP status, got ${spec.status}`);
      }
      const fault: ArmedFault = {
        status: spec.status,
        retryAfterSeconds: spec.retryAfterSeconds ?? null,
        body: spec.body,
        delayMs: spec.delayMs ?? 0,
        dropConnection: spec.dropConnection ?? false,
        headers: { ...spec.headers },
      };
      entries.push({ match, fault, remaining: times, skip: after });
    },
    clear() {
      entries = [];
    },
    pending() {
      return entries.reduce((sum, entry) => sum + entry.remaining, 0);
    },
    take(method, path, query = new URLSearchParams()) {
      let entry: Entry | undefined;
      for (const candidate of entries) {
        if (!matchesFault(candidate.match, method, path, query)) continue;
        if (candidate.skip > 0) {
          candidate.skip -= 1;
          continue;
        }
        entry = candidate;
        break;
      }
      if (entry === undefined) return undefined;
      entry.remaining -= 1;
      if (entry.remaining === 0) entries = entries.filter((candidate) => candidate !== entry);
      return entry.fault;
    },
  };
}

/** Shared with the paging faults, so both kinds of fault select requests the same way. */
export function matchesFault(match: FaultMatch, method: string, path: string, query: URLSearchParams): boolean {
  if (match.method !== undefined && match.method.toUpperCase() !== method.toUpperCase()) return false;
  for (const [name, wanted] of Object.entries(match.query ?? {})) {
    const value = query.get(name);
    if (value === null || (wanted !== true && value !== wanted)) return false;
  }
  if (match.path === undefined) return true;
  if (typeof match.path === "string") return match.path === path;
  match.path.lastIndex = 0; // a /g or /y RegExp would otherwise remember where it stopped
  return match.path.test(path);
}
