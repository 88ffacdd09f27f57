/**
 * Admission in front of the configuration-service routes, in DRF's order: routing, then
 * authentication, then throttling (10 req/s, reference §1.2), then latency and the route.
 */
import type { SimReply, SimRequest } from "../shared/sim-request.js";
import { createRateWindow } from "../shared/rate-window.js";
import type { RouteLookup } from "../shared/router.js";
import type { DispatchContext } from "../shared/simulator-runtime.js";

import { detailReply, NOT_FOUND_DETAIL } from "./drf-errors.js";
import type { ServiceAuth } from "./service-auth.js";
import type { ServiceRoute } from "./service-route.js";

export interface ServiceThrottle {
  readonly requestsPerSecond: number;
  /** The docs allow a 429 without Retry-After; turning it off tests the client's fallback. */
  readonly retryAfterOnRateLimit: boolean;
}

export type ServiceDispatch = (request: SimRequest, lookup: RouteLookup<ServiceRoute>, context: DispatchContext) => Promise<SimReply>;

export function createServiceDispatch(auth: ServiceAuth, throttle: ServiceThrottle): ServiceDispatch {
  const window = createRateWindow(throttle.requestsPerSecond);
  const throttled = (): SimReply =>
    detailReply(
      429,
      "Request was throttled. Expected available in 1 second.",
      throttle.retryAfterOnRateLimit ? { "retry-after": "1" } : {},
    );

  return async (request, lookup, context) => {
    if (lookup.kind === "not-found") return detailReply(404, NOT_FOUND_DETAIL);
    if (lookup.kind === "method-not-allowed") {
      return detailReply(405, `Method "${request.method}" not allowed.`, { allow: lookup.allowed.join(", ") });
    }
    const { handler, params } = lookup.match;
    if (handler.public !== true) {
      const checked = auth.check(request);
      if (!checked.ok) return checked.reply;
    }
    if (!window.tryAcquire()) return throttled();
    await context.applyLatency();
    return handler.handle(request, params);
  };
}
