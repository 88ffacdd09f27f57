import type { RedisClient } from "../../infra/redis/redis-client.js";
import type { Logger } from "pino";
import { createAgent } from "../../infra/http/create-agent.js";
import { retryPolicyOf } from "../../infra/http/retry-policy-of.js";
import type { Settings } from "../../settings/settings-schema.js";
import { redisPrefixOf } from "../../settings/redis-prefix-of.js";
import { activationRateBudget, createActivationClient, type ActivationClient } from "../../upstreams/activation/activation-client.js";
import { activationBudgetOf } from "../../infra/budgets/budget-identity.js";
import type { UpstreamBudgets } from "../../infra/budgets/upstream-budgets.js";
import type { ActivationSettings } from "../../settings/activation-settings-schema.js";
import { DAY_MS, type ActivationStateStore } from "./activation-state-store.js";
import { createFileActivationState } from "./file-activation-state.js";
import { createRedisActivationState } from "./redis-activation-state.js";
import { PimSyncError } from "../../core/errors/pim-sync-error.js";

/** The Activation client and state, with one `close()`. */
export interface ActivationRuntime {
  readonly activation: ActivationSettings;
  readonly client: ActivationClient;
  readonly state: ActivationStateStore;
  /** For the webhook sink: the same retry policy and timeout as every upstream. */
  readonly settings: Settings;
  close(): Promise<void>;
}

/** Thrown by commands and the worker when the config has no `activation` section. */
export class ActivationNotConfigured extends PimSyncError {
  constructor() {
    super("the config has no `activation` section", { code: "ACTIVATION_NOT_CONFIGURED", retryable: false });
    this.name = "ActivationNotConfigured";
  }
}

/** State in the `redis` passed in when the config names one (connected by the caller), else files under `state_dir`. */
export function createActivationRuntime(args: {
  readonly settings: Settings;
  readonly logger: Logger;
  readonly redis?: RedisClient;
  readonly budgets?: UpstreamBudgets;
}): ActivationRuntime {
  const { settings } = args;
  const activation = settings.activation;
  if (!activation) throw new ActivationNotConfigured();
  const agent = createAgent({ connections: 4 });
  const client = createActivationClient({
    settings: activation,
    dispatcher: agent,
    logger: args.logger,
    retry: retryPolicyOf(settings),
    timeoutMs: settings.http.timeout_ms,
    // The worker passes its shared budgets. The Activation commands of the CLI keep a limiter of
    // their own: their state writes are what a Redis outage must hold back (the delivery
    // guarantee's test pauses writes between the append and the save), not their reads.
    ...(args.budgets
      ? {
          rateLimiter: args.budgets.rate(
            activationBudgetOf(activation),
            activationRateBudget(activation.requests_per_second),
            "activation",
          ),
        }
      : {}),
  });
  let state: ActivationStateStore;
  const retention = { ordersMs: activation.orders.retention_days * DAY_MS, offersMs: activation.offers.retention_days * DAY_MS };
  if (args.redis) state = createRedisActivationState(args.redis, redisPrefixOf(settings), { retention });
  else if (settings.redis) throw new Error("the config names a Redis: connect it first (see src/infra/redis/) and pass it as `redis`");
  else state = createFileActivationState(settings.state_dir, { retention });
  return {
    activation,
    client,
    state,
    settings,
    async close() {
      await Promise.allSettled([state.close(), agent.close()]);
    },
  };
}
