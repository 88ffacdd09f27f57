/** Counters a benchmark or test reads: peak concurrency, total requests, requests per route. */
export interface SimStatsSnapshot {
  /** The most requests the simulator was serving at the same moment. */
  readonly maxInFlight: number;
  readonly total: number;
  /** Keyed `METHOD pattern`, e.g. `GET /api/rest/v1/attributes/:code/options`. */
  readonly byRoute: Readonly<Record<string, number>>;
}

export interface SimStats {
  /** Counts a request in; call the returned function once it has been answered. */
  begin(routeKey: string): () => void;
  snapshot(): SimStatsSnapshot;
  /** Starts counting afresh; requests still in flight stay counted as in flight. */
  reset(): void;
}

export function createSimStats(): SimStats {
  let inFlight = 0;
  let maxInFlight = 0;
  let total = 0;
  let byRoute = new Map<string, number>();
  return {
    begin(routeKey) {
      inFlight += 1;
      total += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      byRoute.set(routeKey, (byRoute.get(routeKey) ?? 0) + 1);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inFlight -= 1;
      };
    },
    snapshot() {
      return { maxInFlight, total, byRoute: Object.fromEntries(byRoute) };
    },
    reset() {
      maxInFlight = inFlight;
      total = 0;
      byRoute = new Map();
    },
  };
}
