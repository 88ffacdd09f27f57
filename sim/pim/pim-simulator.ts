/**
 * A real HTTP server that behaves like an Akeneo PIM for what pim-sync uses: OAuth, catalogue
 * structure reads, option and record writes, with the PIM's budgets (429), its error bodies, and
 * controls for tests (faults, latency, token expiry, a live catalogue).
 */
import { createRouter } from "../shared/router.js";
import { startSimulatorRuntime } from "../shared/simulator-runtime.js";
import type { SimulatorControls } from "../shared/simulator-runtime.js";
import type { SimCatalog } from "../catalog/catalog-file.js";

import { defaultAkeneoFaultBody } from "./akeneo-errors.js";
import { DEFAULT_OAUTH_CLIENT, handleTokenRequest } from "./oauth.js";
import type { OAuthClient } from "./oauth.js";
import { createPimDispatch } from "./pim-dispatch.js";
import type { PimBudgets } from "./pim-dispatch.js";
import type { PimRoute, PimRouteContext } from "./pim-route.js";
import type { PimState } from "./pim-state.js";
import { addAttributeOptionReadRoutes } from "./routes/attribute-option-read-routes.js";
import { addAttributeOptionWriteRoutes } from "./routes/attribute-option-write-routes.js";
import { addAttributeRoutes } from "./routes/attribute-routes.js";
import { addRecordWriteRoutes } from "./routes/record-write-routes.js";
import { addReferenceEntityRoutes } from "./routes/reference-entity-routes.js";
import { addStructureRoutes } from "./routes/structure-routes.js";
import { addSimControlRoutes } from "./routes/sim-control-routes.js";
import { createTokenStore } from "./token-store.js";
import { createPimEventEmitter, type PimEventEmitter } from "./pim-event-emitter.js";
import { createSubscriptionNotifier, type SubscriptionNotifier } from "./subscription-notifier.js";
import { resourceFormsOf, type PimAnswerShape } from "./resource-forms.js";

export interface PimSimulatorOptions {
  readonly catalog: SimCatalog["pim"];
  readonly host?: string;
  readonly port?: number;
  readonly clients?: readonly OAuthClient[];
  readonly tokenTtlSeconds?: number;
  /** Added to every admitted request before it is answered. */
  readonly latencyMs?: number;
  readonly budgets?: Partial<PimBudgets>;
  /** Page size of the search_after lists (reference entities and records). */
  readonly recordsPageSize?: number;
  /**
   * `full` (the default) sends every property, as the published examples do; `sparse` leaves
   * out every property Akeneo's API description makes optional (resource-forms.ts).
   */
  readonly shape?: PimAnswerShape;
}

export interface PimSimulator extends SimulatorControls {
  /** The live catalogue (a copy of the one given): change it to change what the PIM serves. */
  readonly state: PimState;
  /** Every access token issued so far now answers "expired"; refresh tokens keep working. */
  expireAllTokens(): void;
  /** Every access and refresh token issued so far is revoked ("invalid"); a new password login works. */
  revokeAllTokens(): void;
  /** The signed CloudEvents posted after each change (off until `events.configure`). */
  readonly events: PimEventEmitter;
  /** The Event Platform's notifications of the subscription suspended, revoked or resumed (off until `subscription.configure`). */
  readonly subscription: SubscriptionNotifier;
}

/** Akeneo's documented limits (reference §3). */
const DEFAULT_BUDGETS: PimBudgets = { inFlightPerConnection: 4, requestsPerSecond: 100, optionWritesPerSecond: 3 };

export async function startPimSimulator(options: PimSimulatorOptions): Promise<PimSimulator> {
  const state: PimState = structuredClone(options.catalog);
  const clients = options.clients ?? [DEFAULT_OAUTH_CLIENT];
  const tokens = createTokenStore(options.tokenTtlSeconds ?? 3600);
  const recordsPageSize = options.recordsPageSize ?? 100;
  if (!Number.isInteger(recordsPageSize) || recordsPageSize < 1) {
    throw new RangeError(`recordsPageSize must be a positive integer, got ${recordsPageSize}`);
  }

  const forms = resourceFormsOf(options.shape ?? "full");
  const router = createRouter<PimRoute>();
  router.add("POST", "/api/oauth/v1/token", { public: true, handle: (request) => handleTokenRequest(request, clients, tokens, forms) });
  const events = createPimEventEmitter();
  const subscription = createSubscriptionNotifier(events);
  const context: PimRouteContext = { state, recordsPageSize, events, subscription, forms };
  addAttributeRoutes(router, context);
  addAttributeOptionReadRoutes(router, context);
  addAttributeOptionWriteRoutes(router, context);
  addStructureRoutes(router, context);
  addReferenceEntityRoutes(router, context);
  addRecordWriteRoutes(router, context);
  addSimControlRoutes(router, context);

  const controls = await startSimulatorRuntime({
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    latencyMs: options.latencyMs ?? 0,
    router,
    dispatch: createPimDispatch(tokens, {
      inFlightPerConnection: options.budgets?.inFlightPerConnection ?? DEFAULT_BUDGETS.inFlightPerConnection,
      requestsPerSecond: options.budgets?.requestsPerSecond ?? DEFAULT_BUDGETS.requestsPerSecond,
      optionWritesPerSecond: options.budgets?.optionWritesPerSecond ?? DEFAULT_BUDGETS.optionWritesPerSecond,
    }),
    defaultFaultBody: defaultAkeneoFaultBody,
  });
  return {
    ...controls,
    state,
    expireAllTokens: () => tokens.expireAllAccess(),
    revokeAllTokens: () => tokens.revokeAll(),
    events,
    subscription,
  };
}
