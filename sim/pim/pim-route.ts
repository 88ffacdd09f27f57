/** How a PIM route declares itself to the simulator's admission checks. */
import type { RouteParams, Router } from "../shared/router.js";
import type { SimReply, SimRequest } from "../shared/sim-request.js";

import type { PimState } from "./pim-state.js";
import type { PimEventEmitter } from "./pim-event-emitter.js";
import type { SubscriptionNotifier } from "./subscription-notifier.js";
import type { ResourceForms } from "./resource-forms.js";

export interface PimRoute {
  /** The token endpoint and the simulator's `/sim` controls: no bearer token, not counted against a connection. */
  readonly public?: boolean;
  /** Attribute option writes have their own, much smaller budget (3 req/s, reference §3). */
  readonly optionWrite?: boolean;
  /** Media types accepted in `Accept` besides application/json. */
  readonly alsoAccepts?: readonly string[];
  handle(request: SimRequest, params: RouteParams): SimReply | Promise<SimReply>;
}

export type PimRouter = Router<PimRoute>;

export interface PimRouteContext {
  readonly state: PimState;
  readonly recordsPageSize: number;
  /** Told of each change a write made (the Event Platform's events). */
  readonly events: PimEventEmitter;
  /** The Event Platform's notifications of the subscription's state (`/sim/subscription/...`). */
  readonly subscription: SubscriptionNotifier;
  /** Full or sparse answers (resource-forms.ts). */
  readonly forms: ResourceForms;
}

export const API_PREFIX = "/api/rest/v1";
