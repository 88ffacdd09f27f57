/**
 * Admission in front of the PIM routes, in the order a request meets them: the instance's
 * per-second budget, routing, the bearer token, the per-connection concurrency budget, `Accept`,
 * and the option-write budget (reference §1, §3). Latency is waited only once a request is admitted,
 * so a slow answer keeps its connection slot the way a slow PIM does.
 */
import { headerOf } from "../shared/sim-request.js";
import type { SimReply, SimRequest } from "../shared/sim-request.js";
import { createRateWindow } from "../shared/rate-window.js";
import type { RouteLookup } from "../shared/router.js";
import type { DispatchContext } from "../shared/simulator-runtime.js";

import { akeneoError, rateLimited } from "./akeneo-errors.js";
import { checkBearer } from "./oauth.js";
import type { PimRoute } from "./pim-route.js";
import type { TokenStore } from "./token-store.js";

export interface PimBudgets {
  readonly inFlightPerConnection: number;
  readonly requestsPerSecond: number;
  readonly optionWritesPerSecond: number;
}

export type PimDispatch = (request: SimRequest, lookup: RouteLookup<PimRoute>, context: DispatchContext) => Promise<SimReply>;

export function createPimDispatch(tokens: TokenStore, budgets: PimBudgets): PimDispatch {
  if (!Number.isInteger(budgets.inFlightPerConnection) || budgets.inFlightPerConnection < 1) {
    throw new RangeError(`inFlightPerConnection must be a positive integer, got ${budgets.inFlightPerConnection}`);
  }
  const perSecond = createRateWindow(budgets.requestsPerSecond);
  const optionWrites = createRateWindow(budgets.optionWritesPerSecond);
  const inFlightByClient = new Map<string, number>();

  return async (request, lookup, context) => {
    if (!perSecond.tryAcquire()) return rateLimited();
    if (lookup.kind === "not-found") return akeneoError(404, `No route found for "${request.method} ${request.path}"`);
    if (lookup.kind === "method-not-allowed") {
      const allow = lookup.allowed.join(", ");
      return akeneoError(
        405,
        `No route found for '${request.method} ${request.path}': Method Not Allowed (Allow: ${allow})`,
        {},
        { allow },
      );
    }
    const { handler, params } = lookup.match;
    if (handler.public === true) {
      await context.applyLatency();
      return handler.handle(request, params);
    }

    const bearer = checkBearer(request, tokens);
    if (!bearer.ok) return bearer.reply;
    const inFlight = inFlightByClient.get(bearer.clientId) ?? 0;
    if (inFlight >= budgets.inFlightPerConnection) return rateLimited();
    inFlightByClient.set(bearer.clientId, inFlight + 1);
    try {
      const accept = headerOf(request, "accept");
      if (accept !== undefined && !acceptable(accept, handler.alsoAccepts ?? [])) {
        return akeneoError(406, `"${accept}" in "Accept" header is not valid. Only "application/json" is allowed.`);
      }
      if (handler.optionWrite === true && !optionWrites.tryAcquire()) return rateLimited();
      await context.applyLatency();
      return await handler.handle(request, params);
    } finally {
      inFlightByClient.set(bearer.clientId, (inFlightByClient.get(bearer.clientId) ?? 1) - 1);
    }
  };
}

/** Wildcards count: HTTP clients (fetch included) send `*\/*` by default. */
function acceptable(accept: string, alsoAccepts: readonly string[]): boolean {
  const wanted = new Set(["application/json", "application/*", "*/*", ...alsoAccepts]);
  return accept
    .split(",")
    .map((range) => range.split(";", 1)[0]?.trim().toLowerCase() ?? "")
    .some((range) => wanted.has(range));
}
