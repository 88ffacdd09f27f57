/**
 * The config of the fleet's `pim-sync worker` processes: every project on the same simulators
 * with the same PIM client and user and the same service token, so that they share one service
 * account and one PIM connection (src/budgets/budget-identity.ts), at the client's default
 * budgets, which are the real ones. Parsed by the real schema before it is written.
 */
import { settingsSchema } from "../../src/settings/settings-schema.js";
import { SIM_PIM_CREDENTIALS, SIM_SERVICE_TOKEN } from "../worker/bench-worker-settings.js";

export function fleetWorkerConfig(args: {
  readonly redisUrl: string;
  readonly prefix: string;
  readonly projects: readonly number[];
  readonly concurrency: number;
  readonly pimUrl: string;
  readonly serviceUrl: string;
  /** Attributes each project may add options to (the small jobs of the fairness phase). */
  readonly allowedAttributes?: Readonly<Record<number, readonly string[]>>;
}): Record<string, unknown> {
  const config = {
    redis: { url: args.redisUrl, prefix: args.prefix },
    // 'worker started' and each job's 'job started' / 'job done' are read from the log.
    log_level: "info",
    worker: { concurrency: args.concurrency },
    add_options: { visibility_delay_ms: 100 },
    projects: args.projects.map((id) => ({
      id,
      pim: { url: args.pimUrl, ...SIM_PIM_CREDENTIALS },
      service: { url: args.serviceUrl, token: SIM_SERVICE_TOKEN },
      allowed_options_for_pim_attribute_addition: [...(args.allowedAttributes?.[id] ?? [])],
    })),
  };
  settingsSchema.parse(config);
  return config;
}
