/**
 * The part both simulators share around their routes: the HTTP server, request recording,
 * statistics, injected faults and latency, and the control surface tests drive them with.
 * Each simulator supplies a router and a dispatch function that does its own admission checks
 * (rate limits, authentication) and calls `applyLatency()` once a request is admitted, so that
 * a slow answer keeps holding its in-flight slot as it would on a real server.
 */
import { abortableSleep } from "./abortable-sleep.js";
import { createFaultInjector } from "./fault-injector.js";
import type { FaultInjector, FaultMatch } from "./fault-injector.js";
import { createRequestGates, type RequestGate, type RequestGateOptions } from "./request-gates.js";
import { createPagingFaults } from "./paging-faults.js";
import type { PagingFaults } from "./paging-faults.js";
import { startHttpServer } from "./http-server.js";
import { dropReply, jsonReply, textReply } from "./replies.js";
import { createRequestLog } from "./request-log.js";
import type { RecordedRequest } from "./request-log.js";
import type { RouteLookup, Router } from "./router.js";
import { createSimStats } from "./sim-stats.js";
import type { SimStatsSnapshot } from "./sim-stats.js";
import { authSchemeOf } from "./sim-request.js";
import type { SimReply, SimRequest } from "./sim-request.js";

/** The control surface common to every simulator. */
export interface SimulatorControls {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Live list of answered requests, in the order they were answered. */
  readonly requests: RecordedRequest[];
  /** Empties `requests` and restarts `stats()`. */
  clearRequests(): void;
  readonly faults: FaultInjector;
  /** List pages that lie about what follows (loops, repeats, early ends, links to elsewhere). */
  readonly pagingFaults: PagingFaults;
  setLatencyMs(ms: number): void;
  /**
   * Answers `414 URI Too Long` to a request whose target (path and query) is longer than this,
   * as a proxy in front of the upstream would, before anything else sees it; null: no bound.
   */
  setMaxUrlBytes(bytes: number | null): void;
  /**
   * Holds the requests `match` selects once admitted (after the latency, keeping their in-flight
   * slot) until the gate is opened: for a test that needs a request or a job to last until
   * something else happened, which a latency only makes likely.
   */
  holdRequests(match: FaultMatch, options?: RequestGateOptions): RequestGate;
  waitForRequest(predicate: (request: RecordedRequest) => boolean, timeoutMs: number): Promise<RecordedRequest>;
  stats(): SimStatsSnapshot;
  close(): Promise<void>;
}

export interface DispatchContext {
  /** Waits the configured latency, then at the gates the request matches (both cut short when the simulator closes). */
  applyLatency(): Promise<void>;
}

export interface SimulatorRuntimeOptions<H> {
  readonly host: string;
  readonly port: number;
  readonly latencyMs: number;
  readonly router: Router<H>;
  dispatch(request: SimRequest, lookup: RouteLookup<H>, context: DispatchContext): Promise<SimReply>;
  /** The body of an injected fault that has none, in the simulator's error dialect. */
  defaultFaultBody(status: number): unknown;
}

export async function startSimulatorRuntime<H>(options: SimulatorRuntimeOptions<H>): Promise<SimulatorControls> {
  const log = createRequestLog();
  const stats = createSimStats();
  const faults = createFaultInjector();
  const pagingFaults = createPagingFaults();
  const lifetime = new AbortController();
  const gates = createRequestGates();
  let latencyMs = checkedLatency(options.latencyMs);
  let maxUrlBytes: number | null = null;
  const contextOf = (request: SimRequest): DispatchContext => ({
    async applyLatency() {
      await abortableSleep(latencyMs, lifetime.signal);
      await gates.pass(request.method, request.path, request.query);
    },
  });

  const handle = async (request: SimRequest): Promise<SimReply> => {
    const startedAt = epochNow();
    const lookup = options.router.lookup(request.method, request.path);
    const route = lookup.kind === "found" ? lookup.match.pattern : null;
    const endStats = stats.begin(`${request.method} ${route ?? "(no route)"}`);
    const fault = faults.take(request.method, request.path, request.query);
    let reply: SimReply;
    let pagingFaultFired = false;
    try {
      if (maxUrlBytes !== null && request.targetBytes > maxUrlBytes) {
        reply = textReply(414, "text/html", "<html><body><h1>414 Request-URI Too Large</h1></body></html>");
      } else if (fault === undefined) {
        const edited = pagingFaults.apply(request, await options.dispatch(request, lookup, contextOf(request)));
        reply = edited.reply;
        pagingFaultFired = edited.fired;
      } else {
        await abortableSleep(fault.delayMs, lifetime.signal);
        const headers: Record<string, string> = {
          ...fault.headers,
          ...(fault.retryAfterSeconds === null ? {} : { "retry-after": String(fault.retryAfterSeconds) }),
        };
        reply = fault.dropConnection
          ? dropReply
          : jsonReply(fault.status, fault.body === undefined ? options.defaultFaultBody(fault.status) : fault.body, headers);
      }
    } finally {
      endStats();
    }
    log.record({
      method: request.method,
      path: request.path,
      query: firstValues(request.query),
      route,
      status: reply.kind === "drop" ? 0 : reply.status,
      startedAt,
      endedAt: epochNow(),
      authScheme: authSchemeOf(request),
      fault: fault !== undefined || pagingFaultFired,
    });
    return reply;
  };

  const server = await startHttpServer({ host: options.host, port: options.port, handle });
  return {
    url: server.url,
    requests: log.entries,
    clearRequests() {
      log.clear();
      stats.reset();
    },
    faults,
    pagingFaults,
    setLatencyMs(ms) {
      latencyMs = checkedLatency(ms);
    },
    setMaxUrlBytes(bytes) {
      if (bytes !== null && (!Number.isInteger(bytes) || bytes < 1))
        throw new RangeError(`max URL bytes must be a positive integer, got ${bytes}`);
      maxUrlBytes = bytes;
    },
    holdRequests: (match, options) => gates.hold(match, options),
    waitForRequest: (predicate, timeoutMs) => log.waitFor(predicate, timeoutMs),
    stats: () => stats.snapshot(),
    async close() {
      lifetime.abort();
      gates.openAll();
      log.rejectWaiters(new Error("simulator closed"));
      await server.close();
    },
  };
}

/** performance-based so that tests faking Date (token expiry) do not skew request timings. */
function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

function checkedLatency(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`latency must be a non-negative number of ms, got ${ms}`);
  return ms;
}

function firstValues(query: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of query) {
    if (!(key in values)) values[key] = value;
  }
  return values;
}
