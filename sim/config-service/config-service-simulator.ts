/**
 * A real HTTP server that behaves like the configuration service (Akeneo Supplier Data Manager)
 * for what pim-sync uses: token auth, the collection list, update-options and add-options, with
 * its 10 req/s throttle, DRF error bodies, and controls for tests. Linked to a PIM simulator,
 * add-options also creates the options in the PIM.
 */
import { createRouter } from "../shared/router.js";
import { startSimulatorRuntime } from "../shared/simulator-runtime.js";
import type { SimulatorControls } from "../shared/simulator-runtime.js";
import type { SimCatalog } from "../catalog/catalog-file.js";
import type { PimSimulator } from "../pim/pim-simulator.js";

import { createCollectionStore } from "./collection-store.js";
import type { CollectionSnapshot, RecordedWrite, WriteListener } from "./collection-store.js";
import { defaultDrfFaultBody } from "./drf-errors.js";
import { addListCollectionsRoute } from "./routes/list-collections-route.js";
import { addOptionsWriteRoutes } from "./routes/options-write-routes.js";
import { addTokenRoute } from "./routes/token-route.js";
import { createServiceAuth } from "./service-auth.js";
import type { ServiceUser } from "./service-auth.js";
import { createServiceDispatch } from "./service-dispatch.js";
import type { ServiceRoute } from "./service-route.js";

export interface ConfigServiceSimulatorOptions {
  readonly catalog: SimCatalog["service"];
  /** add-options writes the added options into this PIM simulator's live catalogue. */
  readonly pim?: PimSimulator;
  readonly host?: string;
  readonly port?: number;
  /** Keys accepted without calling the token endpoint. */
  readonly tokens?: readonly string[];
  readonly users?: readonly ServiceUser[];
  readonly requestsPerSecond?: number;
  readonly retryAfterOnRateLimit?: boolean;
  readonly latencyMs?: number;
  /** Cap of the list's `limit`. */
  readonly pageSizeMax?: number;
  /** Answer the list with every project's collections, as a service not honouring `project` would. */
  readonly ignoreProjectFilter?: boolean;
}

export interface ConfigServiceSimulator extends SimulatorControls {
  /** The collections with their options, options in insertion order (a copy). */
  collections(): CollectionSnapshot[];
  /** Accepted write bodies per collection id, in order (a copy). */
  writes(): Record<number, RecordedWrite[]>;
  /** Calls `listener` as each write is accepted; returns the function that stops it. */
  onWrite(listener: WriteListener): () => void;
  /** The token answers 401 "Invalid token." until restored (revoked mid-run). */
  revokeToken(token: string): void;
  restoreToken(token: string): void;
}

export async function startConfigServiceSimulator(options: ConfigServiceSimulatorOptions): Promise<ConfigServiceSimulator> {
  const pageSizeMax = options.pageSizeMax ?? 100;
  if (!Number.isInteger(pageSizeMax) || pageSizeMax < 1) throw new RangeError(`pageSizeMax must be a positive integer, got ${pageSizeMax}`);
  const store = createCollectionStore(structuredClone(options.catalog));
  const auth = createServiceAuth(
    options.tokens ?? ["sim-service-token"],
    options.users ?? [{ email: "sim@example.com", password: "sim-password" }],
  );

  const router = createRouter<ServiceRoute>();
  const context = { store, pim: options.pim?.state, pageSizeMax, ignoreProjectFilter: options.ignoreProjectFilter ?? false };
  addTokenRoute(router, auth);
  addListCollectionsRoute(router, context);
  addOptionsWriteRoutes(router, context);

  const controls = await startSimulatorRuntime({
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    latencyMs: options.latencyMs ?? 0,
    router,
    dispatch: createServiceDispatch(auth, {
      requestsPerSecond: options.requestsPerSecond ?? 10,
      retryAfterOnRateLimit: options.retryAfterOnRateLimit ?? true,
    }),
    defaultFaultBody: defaultDrfFaultBody,
  });
  return {
    ...controls,
    collections: () => store.snapshot(),
    writes: () => store.writes(),
    onWrite: (listener) => store.onWrite(listener),
    revokeToken: (token) => auth.revoke(token),
    restoreToken: (token) => auth.restore(token),
  };
}
