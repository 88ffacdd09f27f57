import type { Registry } from "prom-client";
import { AUTH_REFUSAL_REASONS, AUTH_SURFACES, type AuthRefusalObserver } from "../auth/auth-refusal.js";
import { registerMetrics } from "./register-metrics.js";

/** Told of the HTTP answers this process got from the upstreams and gave to its own clients. */
export interface HttpAnswerMetrics extends AuthRefusalObserver {
  upstreamResponse(upstream: "pim" | "service", status: number | "error"): void;
  /** One answered HTTP request: `route` is the pattern the router matched (`/v1/jobs/:project/:id`), never the path. */
  httpRequestAnswered(method: string, route: string, status: number): void;
}

/** The upstreams' answers (429s apart, for alerts), the worker's server's answers and its refusals. */
export function createHttpAnswerMetrics(registry: Registry): HttpAnswerMetrics {
  const metric = registerMetrics(registry, {
    upstreamRequests: {
      type: "counter",
      name: "pim_sync_upstream_requests_total",
      help: "Upstream HTTP requests by upstream (pim, service) and status code (or error).",
      labelNames: ["upstream", "status"],
    },
    throttled: {
      type: "counter",
      name: "pim_sync_upstream_throttled_total",
      help: "Upstream answers 429 (too many requests).",
      labelNames: ["upstream"],
    },
    httpRequests: {
      type: "counter",
      name: "pim_sync_http_requests_total",
      help: "HTTP requests answered by the worker's server, by method, route pattern (unmatched when no route matched) and status code.",
      labelNames: ["method", "route", "status"],
    },
    authRefused: {
      type: "counter",
      name: "pim_sync_auth_refused_total",
      help: "Requests refused by the HTTP server's authentication, by surface (admin, trigger, metrics) and reason (missing, invalid, throttled, forbidden).",
      labelNames: ["surface", "reason"],
    },
  });
  // Every series exists from the start, so a rate over the first refusal is not lost.
  for (const surface of AUTH_SURFACES) for (const reason of AUTH_REFUSAL_REASONS) metric.authRefused.inc({ surface, reason }, 0);
  // The alert rules (deploy/prometheus/) take an increase of it: a counter first seen at 1 hides its first 429.
  for (const upstream of ["pim", "service"] as const) metric.throttled.inc({ upstream }, 0);

  return {
    authRefused(surface, reason) {
      metric.authRefused.inc({ surface, reason });
    },
    httpRequestAnswered(method, route, status) {
      metric.httpRequests.inc({ method, route, status: String(status) });
    },
    upstreamResponse(upstream, status) {
      metric.upstreamRequests.inc({ upstream, status: String(status) });
      if (status === 429) metric.throttled.inc({ upstream });
    },
  };
}
