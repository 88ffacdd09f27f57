/**
 * The shortest time a sync could take when only the upstream budgets limit it:
 *
 *   floor = max( PIM requests / min(100 req/s, 4 in flight / latency),  service requests / 10 req/s )
 *
 * The PIM serves at most `requestsPerSecond`, and with `maxInFlight` requests each taking
 * `latency`, at most maxInFlight/latency per second; the service serves at most 10 per second.
 * Both upstreams work at the same time, so the slower one sets the floor. It ignores the
 * sequential parts a real sync cannot avoid (token before structure, structure before options,
 * a list's pages one after another), so it is a lower bound, never reached exactly.
 */
export interface UpstreamBudgets {
  readonly pimRequestsPerSecond: number;
  readonly pimMaxInFlight: number;
  readonly serviceRequestsPerSecond: number;
}

/** The real budgets, which are the simulators' defaults. */
export const REAL_BUDGETS: UpstreamBudgets = { pimRequestsPerSecond: 100, pimMaxInFlight: 4, serviceRequestsPerSecond: 10 };

export interface Floor {
  readonly pimSeconds: number;
  readonly serviceSeconds: number;
  readonly seconds: number;
  /** Which upstream sets the floor. */
  readonly boundBy: "pim" | "service";
}

/** The PIM's effective rate: the per-second budget, or the in-flight budget over the latency if lower. */
export function pimRate(latencyMs: number, budgets: UpstreamBudgets = REAL_BUDGETS): number {
  const byConcurrency = latencyMs > 0 ? budgets.pimMaxInFlight / (latencyMs / 1000) : Number.POSITIVE_INFINITY;
  return Math.min(budgets.pimRequestsPerSecond, byConcurrency);
}

export function computeFloor(
  requests: { readonly pim: number; readonly service: number },
  latencyMs: number,
  budgets: UpstreamBudgets = REAL_BUDGETS,
): Floor {
  const pimSeconds = requests.pim / pimRate(latencyMs, budgets);
  const serviceSeconds = requests.service / budgets.serviceRequestsPerSecond;
  return {
    pimSeconds,
    serviceSeconds,
    seconds: Math.max(pimSeconds, serviceSeconds),
    boundBy: pimSeconds >= serviceSeconds ? "pim" : "service",
  };
}
