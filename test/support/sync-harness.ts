import { Agent } from "undici";
import { createConfigServiceClient } from "../../src/upstreams/config-service/config-service-client.js";
import { DEFAULT_NAMING } from "../../src/core/derive/naming.js";
import type { RetryPolicy } from "../../src/infra/http/retry-policy.js";
import { createPimClient, type PimClient } from "../../src/upstreams/pim/pim-client.js";
import { DEFAULT_DELETION_GUARD } from "../../src/core/reconcile/collection-plan.js";
import { loadSimCatalog, type SimCatalog } from "../../sim/catalog/catalog-file.js";
import {
  startConfigServiceSimulator,
  type ConfigServiceSimulator,
  type ConfigServiceSimulatorOptions,
} from "../../sim/config-service/config-service-simulator.js";
import { startPimSimulator, type PimSimulator, type PimSimulatorOptions } from "../../sim/pim/pim-simulator.js";
import { defaultCatalogPath } from "../../sim/start-simulators.js";
import { createRedisHeldStore } from "../../src/features/sync/held/redis-held-store.js";
import type { HeldStore } from "../../src/features/sync/held/held-store.js";
import { DEFAULT_HELD_SETTINGS } from "../../src/settings/held-settings-schema.js";
import { createRedisStateStore } from "../../src/stores/state/redis-state-store.js";
import { addOptionsSchema } from "../../src/settings/settings-schema.js";
import type { StateStore } from "../../src/stores/state/state-store.js";
import type { PimReader } from "../../src/features/sync/pim-reader.js";
import { syncProject, type SyncInput } from "../../src/features/sync/sync-project.js";
import type { SyncReport } from "../../src/features/sync/sync-report.js";
import { createTestRedis, type TestRedis } from "./redis.js";
import { silentLogger } from "./silent-logger.js";
import { DEFAULT_PIM_CLIENT_LIMITS, DEFAULT_SERVICE_CLIENT_LIMITS } from "./default-settings.js";

/** Fast, deterministic retries for tests: the policy's shape is what is under test, not its timing. */
export const TEST_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 40, maxRetryAfterMs: 5_000 };

export const PROJECT = 67;

export interface SyncClientOptions {
  readonly retry?: RetryPolicy;
  readonly timeoutMs?: number;
  readonly serviceRequestsPerSecond?: number;
  /** Fault injection at the client boundary: what the sync reads through, around the real client. */
  readonly wrapPim?: (pim: PimClient) => PimReader;
}

export interface SyncHarness {
  readonly pim: PimSimulator;
  readonly service: ConfigServiceSimulator;
  readonly redis: TestRedis;
  readonly state: StateStore;
  /** The held plans every sync of the harness reads and keeps (under the same prefix). */
  readonly held: HeldStore;
  /** One sync with fresh clients (so request counts are per run), against the Redis state. */
  sync(input?: Partial<SyncInput>, clientOptions?: SyncClientOptions): Promise<SyncReport>;
  /** Live options of one of the project's collections in the service simulator, by name. */
  optionsOf(collection: string, project?: number): { name: string; label: Record<string, string> }[];
  close(): Promise<void>;
}

/**
 * The simulators (real HTTP servers) with the sample catalogue, optionally edited, plus a Redis
 * state store under a unique prefix: the real parts a sync talks to.
 */
export async function startSyncHarness(
  options: {
    readonly editCatalog?: (catalog: SimCatalog) => void;
    readonly pim?: Partial<Omit<PimSimulatorOptions, "catalog">>;
    readonly service?: Partial<Omit<ConfigServiceSimulatorOptions, "catalog" | "pim">>;
  } = {},
): Promise<SyncHarness> {
  const catalog = await loadSimCatalog(defaultCatalogPath());
  options.editCatalog?.(catalog);
  const pim = await startPimSimulator({ catalog: catalog.pim, ...options.pim });
  const service = await startConfigServiceSimulator({ catalog: catalog.service, pim, ...options.service });
  const redis = await createTestRedis();
  const state = createRedisStateStore(redis.redis, redis.prefix);
  const held = createRedisHeldStore(redis.redis, redis.prefix);
  const logger = silentLogger();

  return {
    pim,
    service,
    redis,
    state,
    held,
    async sync(input = {}, clientOptions = {}) {
      const dispatcher = new Agent({ keepAliveTimeout: 10, keepAliveMaxTimeout: 10 });
      const common = {
        dispatcher,
        logger,
        retry: clientOptions.retry ?? TEST_RETRY,
        timeoutMs: clientOptions.timeoutMs ?? 5_000,
        random: () => 0.5,
      };
      const pimClient = createPimClient({
        ...DEFAULT_PIM_CLIENT_LIMITS,
        ...common,
        baseUrl: pim.url,
        credentials: { clientId: "sim-client", secret: "sim-secret", username: "sim-user", password: "sim-password" },
      });
      const serviceClient = createConfigServiceClient({
        ...DEFAULT_SERVICE_CLIENT_LIMITS,
        ...common,
        baseUrl: service.url,
        credentials: { token: "sim-service-token" },
        requestsPerSecond: clientOptions.serviceRequestsPerSecond ?? DEFAULT_SERVICE_CLIENT_LIMITS.requestsPerSecond,
      });
      try {
        return await syncProject(
          { pim: clientOptions.wrapPim ? clientOptions.wrapPim(pimClient) : pimClient, service: serviceClient, state, held, logger },
          {
            project: PROJECT,
            filters: {},
            naming: DEFAULT_NAMING,
            guard: DEFAULT_DELETION_GUARD,
            full: false,
            allowMassDelete: false,
            dryRun: false,
            recentAdditionGraceMs: addOptionsSchema.parse({}).recent_addition_grace_ms,
            heldExpiryMs: DEFAULT_HELD_SETTINGS.expiry_ms,
            ...input,
          },
        );
      } finally {
        await dispatcher.close();
      }
    },
    optionsOf(collection, project = PROJECT) {
      const found = service.collections().find((c) => c.name === collection && c.project === project);
      if (!found) throw new Error(`no collection '${collection}' in project ${project}`);
      return found.options.map((o) => ({ name: o.name, label: { ...o.label } }));
    },
    async close() {
      await Promise.allSettled([service.close(), pim.close()]);
      await redis.cleanup();
    },
  };
}

/** Names of the options, sorted: for order-insensitive comparisons. */
export function namesOf(options: readonly { name: string }[]): string[] {
  return options.map((o) => o.name).sort();
}
