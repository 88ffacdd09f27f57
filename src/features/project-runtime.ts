import type { RedisClient } from "../infra/redis/redis-client.js";
import type { Logger } from "pino";
import type { Agent } from "undici";
import { createConfigServiceClient, type ConfigServiceClient } from "../upstreams/config-service/config-service-client.js";
import type { ServiceCredentials } from "../upstreams/config-service/service-auth.js";
import { createAgent } from "../infra/http/create-agent.js";
import { retryPolicyOf } from "../infra/http/retry-policy-of.js";
import { createPimClient, type PimClient } from "../upstreams/pim/pim-client.js";
import { redisPrefixOf } from "../settings/redis-prefix-of.js";
import type { ProjectSettings, Settings } from "../settings/settings-schema.js";
import type { StateStore } from "../stores/state/state-store.js";
import { stateStoreOf } from "../stores/state/state-store-of.js";
import { createCatalogCache, type CatalogCache } from "./add-options/catalog-cache.js";
import { pimConnectionBudgetOf, pimInstanceBudgetOf, serviceBudgetOf } from "../infra/budgets/budget-identity.js";
import { PIM_INSTANCE_IN_FLIGHT } from "../infra/budgets/budget-usage.js";
import { createProcessBudgets, createRedisBudgets, type UpstreamBudgets } from "../infra/budgets/upstream-budgets.js";
import { keyspaceOf } from "../infra/redis/keyspace.js";
import type { HeldStore } from "./sync/held/held-store.js";
import { pimCredentialsOf } from "../upstreams/pim/pim-credentials-of.js";
import type { HistoryStore } from "../stores/history/history-store.js";

/** The clients and stores one project's work needs, with one `close()` that releases them all. */
export interface ProjectRuntime {
  readonly project: ProjectSettings;
  readonly pim: PimClient;
  readonly service: ConfigServiceClient;
  readonly state: StateStore;
  /** The change history: every accepted write (src/stores/history/). */
  readonly history: HistoryStore;
  /** Deletions the guard held back, kept for review (src/features/sync/held/). */
  readonly held: HeldStore;
  /** Structure and collection list, reused between add-options jobs (see catalog-cache.ts). */
  readonly catalog: CatalogCache;
  close(): Promise<void>;
}

export function serviceCredentialsOf(project: ProjectSettings): ServiceCredentials {
  const service = project.service;
  return "token" in service
    ? { token: service.token }
    : { email: service.email, password: service.password, tokenName: service.token_name };
}

/**
 * Budgets shared through the Redis when there is one (the CLI's `--once` beside a running
 * fleet counts with it), else this process's own.
 */
export function budgetsFor(settings: Settings, logger: Logger, redis: RedisClient | undefined): UpstreamBudgets {
  const maxPauseMs = settings.http.max_retry_after_ms;
  if (!redis) return createProcessBudgets({ maxPauseMs });
  return createRedisBudgets({
    redis,
    keyspace: keyspaceOf(redis, redisPrefixOf(settings)),
    leaseMs: settings.budgets.lease_ms,
    maxPauseMs,
    logger,
  });
}

/**
 * Wires one project's clients. State goes to the `stateStore` given, else to one of its own on
 * the `redis` passed in when the config names one (connected by the caller, see
 * src/infra/redis/, and not closed here), or in files under `state_dir` (stateStoreOf).
 */
export function createProjectRuntime(args: {
  readonly settings: Settings;
  readonly project: ProjectSettings;
  readonly logger: Logger;
  readonly redis?: RedisClient;
  /** The app's state store (`stateStoreOf`), made once for all its projects; without it the runtime makes and closes one of its own. */
  readonly stateStore?: StateStore;
  /** Every upstream answer's status (or "error"), for the worker's metrics. */
  readonly onUpstreamResponse?: (upstream: "pim" | "service", status: number | "error") => void;
  /**
   * The upstream budgets this project shares with others (the worker's, through Redis); without
   * them the project gets budgets of its own, in this process.
   */
  readonly budgets?: UpstreamBudgets;
  /** The change history and the held plans: the app's (`reviewStoresOf`), made once for all its projects. */
  readonly review: { readonly history: HistoryStore; readonly held: HeldStore };
}): ProjectRuntime {
  const observe = args.onUpstreamResponse;
  const { settings, project, logger } = args;
  const budgets = args.budgets ?? budgetsFor(settings, logger, args.redis);
  const turn = String(project.id);
  const pimInstance = pimInstanceBudgetOf(project.pim);
  const retry = retryPolicyOf(settings);
  const agents: Agent[] = [];
  const pimAgent = createAgent({ connections: project.pim.max_in_flight });
  const serviceAgent = createAgent({ connections: project.service.max_in_flight });
  agents.push(pimAgent, serviceAgent);

  const pim = createPimClient({
    baseUrl: project.pim.url,
    credentials: pimCredentialsOf(project.pim),
    dispatcher: pimAgent,
    logger,
    retry,
    timeoutMs: settings.http.timeout_ms,
    maxInFlight: project.pim.max_in_flight,
    requestsPerSecond: project.pim.requests_per_second,
    optionWritesPerSecond: project.pim.option_writes_per_second,
    budgets: {
      requests: budgets.rate(pimInstance, { limit: project.pim.requests_per_second }, turn),
      // Option writes are counted per instance by the PIM, apart from its other requests.
      optionWrites: budgets.rate(`${pimInstance}-option-writes`, { limit: project.pim.option_writes_per_second }, turn),
      slots: budgets.slots(
        [
          { identity: pimConnectionBudgetOf(project.pim), limit: project.pim.max_in_flight },
          { identity: pimInstance, limit: PIM_INSTANCE_IN_FLIGHT },
        ],
        turn,
      ),
    },
    onResponse: observe && ((status) => observe("pim", status)),
  });
  const service = createConfigServiceClient({
    baseUrl: project.service.url,
    credentials: serviceCredentialsOf(project),
    dispatcher: serviceAgent,
    logger,
    retry,
    timeoutMs: settings.http.timeout_ms,
    requestsPerSecond: project.service.requests_per_second,
    maxInFlight: project.service.max_in_flight,
    rateLimiter: budgets.rate(serviceBudgetOf(project.service), { limit: project.service.requests_per_second }, turn),
    onResponse: observe && ((status) => observe("service", status)),
  });

  const ownsState = args.stateStore === undefined;
  const state = args.stateStore ?? stateStoreOf(settings, args.redis);

  const catalog = createCatalogCache({
    ttlMs: settings.add_options.catalog_cache_ms,
    readStructure: (signal) => pim.readStructure(signal),
    listCollections: (id, signal) => service.listCollections(id, signal),
  });

  const { history, held } = args.review;

  return {
    project,
    pim,
    service,
    state,
    history,
    held,
    catalog,
    async close() {
      await Promise.allSettled([ownsState ? state.close() : undefined, ...agents.map((agent) => agent.close())]);
    },
  };
}
