/** How a configuration-service route declares itself, and what routes share. */
import type { RouteParams, Router } from "../shared/router.js";
import type { SimReply, SimRequest } from "../shared/sim-request.js";
import type { PimState } from "../pim/pim-state.js";

import type { CollectionStore } from "./collection-store.js";

export interface ServiceRoute {
  /** The token endpoint needs no token. */
  readonly public?: boolean;
  handle(request: SimRequest, params: RouteParams): SimReply | Promise<SimReply>;
}

export type ServiceRouter = Router<ServiceRoute>;

export interface ServiceRouteContext {
  readonly store: CollectionStore;
  /** When set, add-options also writes into this PIM simulator's live catalogue. */
  readonly pim: PimState | undefined;
  readonly pageSizeMax: number;
  /** The list answers every project's collections whatever `project` asks (a filter not honoured). */
  readonly ignoreProjectFilter: boolean;
}

export const COLLECTIONS_PREFIX = "/api/v1/options_collections";
