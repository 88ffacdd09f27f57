/**
 * Where a run's time goes, read from the simulators' request logs (arrival and answer times on
 * the same clock as the parent): how close the client came to each per-second budget, how long
 * the child took to send its first request and to exit after its last, and how long the run
 * ended with the PIM reading one page after another.
 */

export interface TimedRequest {
  /** Epoch ms when the simulator counted the request (after reading its body). */
  readonly startedAt: number;
  readonly endedAt: number;
  /** The simulator's route pattern, e.g. `/api/rest/v1/attributes/:code/options`. */
  readonly route?: string | null;
}

/** Routes of option sources: attribute options and reference-entity records. */
const SOURCE_ROUTE = /\/(options|records)$/;

/**
 * The shortest span covering `limit + 1` consecutive arrivals. Under 1000 ms means some
 * one-second window saw more than `limit` requests (the upstream refused the extra ones): the
 * client limiter's margin did not cover the delay between its count and the server's. null
 * when there are not that many requests.
 */
export function tightestWindowMs(arrivals: readonly number[], limit: number): number | null {
  if (arrivals.length <= limit) return null;
  const sorted = [...arrivals].sort((a, b) => a - b);
  let tightest = Number.POSITIVE_INFINITY;
  for (let i = 0; i + limit < sorted.length; i += 1) tightest = Math.min(tightest, (sorted[i + limit] ?? 0) - (sorted[i] ?? 0));
  return tightest;
}

/**
 * How long the run ended with at most one request in flight: the last stretch where pages were
 * read strictly one after another (a long list read to its end while nothing else was left),
 * from the last moment two or more requests overlapped to the last answer.
 */
export function sequentialTailMs(requests: readonly TimedRequest[]): number {
  if (requests.length === 0) return 0;
  const events: [number, number][] = [];
  for (const request of requests) events.push([request.startedAt, 1], [request.endedAt, -1]);
  // Ends before starts at the same instant: back-to-back requests do not overlap.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let inFlight = 0;
  let lastOverlapEnd = events[0]?.[0] ?? 0;
  for (const [at, delta] of events) {
    if (inFlight >= 2 && delta === -1) lastOverlapEnd = at;
    inFlight += delta;
  }
  return Math.max(0, spanOf(requests).last - lastOverlapEnd);
}

/**
 * Requests the upstream was serving on average over its busy span (first arrival to last
 * answer), and how long it held each. Near the in-flight budget (4 for the PIM) the run was
 * bound by round trips, not by the per-second budget; well under it, the client left the
 * upstream idle (waiting for its own CPU, its rate limiter, or a pause after a 429).
 */
export function meanInFlight(requests: readonly TimedRequest[]): { readonly meanInFlight: number; readonly meanServedMs: number } {
  if (requests.length === 0) return { meanInFlight: 0, meanServedMs: 0 };
  let busy = 0;
  for (const request of requests) busy += request.endedAt - request.startedAt;
  const { first, last } = spanOf(requests);
  return { meanInFlight: last > first ? busy / (last - first) : 0, meanServedMs: busy / requests.length };
}

export interface RunTimeline {
  /** Spawn to the first request either simulator saw: node start, module loading, settings. */
  readonly startupMs: number;
  /** Last answer to the child's exit: closing clients and the process. */
  readonly shutdownMs: number;
  readonly pimTightestWindowMs: number | null;
  readonly serviceTightestWindowMs: number | null;
  readonly pimSequentialTailMs: number;
  readonly pimMeanInFlight: number;
  readonly pimMeanServedMs: number;
  /** PIM requests per second over its busy span. */
  readonly pimRate: number;
  /**
   * First request to the first option or record page: the steps that must come one after the
   * other (token, structure pages, the service's collection list) before any source is read.
   * null when no source was read.
   */
  readonly prefixMs: number | null;
}

export function runTimeline(args: {
  readonly spawnedAt: number;
  readonly exitedAt: number;
  readonly pim: readonly TimedRequest[];
  readonly service: readonly TimedRequest[];
  readonly pimLimit: number;
  readonly serviceLimit: number;
}): RunTimeline {
  const all = [...args.pim, ...args.service];
  const { first: firstStart, last: lastEnd } = all.length === 0 ? { first: args.exitedAt, last: args.exitedAt } : spanOf(all);
  const pim = meanInFlight(args.pim);
  let firstSourceRead: number | undefined;
  for (const request of args.pim) {
    if (request.route != null && SOURCE_ROUTE.test(request.route))
      firstSourceRead = Math.min(firstSourceRead ?? request.startedAt, request.startedAt);
  }
  const pimSpan = args.pim.length === 0 ? 0 : spanOf(args.pim).last - spanOf(args.pim).first;
  return {
    startupMs: firstStart - args.spawnedAt,
    shutdownMs: args.exitedAt - lastEnd,
    pimTightestWindowMs: tightestWindowMs(
      args.pim.map((request) => request.startedAt),
      args.pimLimit,
    ),
    serviceTightestWindowMs: tightestWindowMs(
      args.service.map((request) => request.startedAt),
      args.serviceLimit,
    ),
    pimSequentialTailMs: sequentialTailMs(args.pim),
    pimMeanInFlight: pim.meanInFlight,
    pimMeanServedMs: pim.meanServedMs,
    pimRate: pimSpan > 0 ? args.pim.length / (pimSpan / 1000) : 0,
    prefixMs: firstSourceRead === undefined ? null : firstSourceRead - firstStart,
  };
}

/** First arrival and last answer, in one pass (logs hold tens of thousands of requests: no spreading into Math.max). */
function spanOf(requests: readonly TimedRequest[]): { readonly first: number; readonly last: number } {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const request of requests) {
    first = Math.min(first, request.startedAt);
    last = Math.max(last, request.endedAt);
  }
  return { first, last };
}
