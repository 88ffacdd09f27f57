/**
 * The config of the fleet's `pim-sync worker` processes: by default every project on the same
 * simulators with the same PIM client and user and the same service token, so that they share
 * one service account and one PIM connection (src/infra/budgets/budget-identity.ts), at the client's
 * default budgets, which are the real ones. The large fleet gives each project its own
 * simulators (`endpointsOf`), a schedule or an events subscription. Parsed by the real schema
 * before it is written.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { settingsSchema } from "../../src/settings/settings-schema.js";
import { SIM_PIM_CREDENTIALS, SIM_SERVICE_TOKEN } from "../worker/bench-worker-settings.js";

/** Where one project's upstreams are, and what triggers its syncs besides the benchmark. */
export interface FleetProjectEndpoints {
  readonly pimUrl: string;
  readonly serviceUrl: string;
  /** A 6-field cron (UTC). */
  readonly scheduleCron?: string;
  /** Subscribed to PIM events, signed with the secret in this environment variable. */
  readonly eventsSecretVariable?: string;
}

export interface FleetWorkerConfigArgs {
  readonly redisUrl: string;
  readonly prefix: string;
  readonly projects: readonly number[];
  readonly concurrency: number;
  /** Every project's upstreams, unless `endpointsOf` gives each its own. */
  readonly pimUrl?: string;
  readonly serviceUrl?: string;
  /** Attributes each project may add options to (the small jobs of the fairness phase). */
  readonly allowedAttributes?: Readonly<Record<number, readonly string[]>>;
  /** Per project, instead of `pimUrl` and `serviceUrl`. */
  readonly endpointsOf?: (project: number) => FleetProjectEndpoints;
  readonly scheduleJitterMs?: number;
  /** The HTTP server on a free port (the events receiver). */
  readonly server?: boolean;
}

export function fleetWorkerConfig(args: FleetWorkerConfigArgs): Record<string, unknown> {
  const config = {
    redis: { url: args.redisUrl, prefix: args.prefix },
    // 'worker started' and each job's 'job started' / 'job done' are read from the log.
    log_level: "info",
    worker: {
      concurrency: args.concurrency,
      ...(args.scheduleJitterMs === undefined ? {} : { schedule_jitter_ms: args.scheduleJitterMs }),
    },
    ...(args.server === true ? { server: { host: "127.0.0.1", port: 0 } } : {}),
    add_options: { visibility_delay_ms: 100 },
    projects: args.projects.map((id) => {
      const endpoints = args.endpointsOf?.(id) ?? { pimUrl: args.pimUrl ?? "", serviceUrl: args.serviceUrl ?? "" };
      const events = endpoints.eventsSecretVariable === undefined ? {} : { events: { secret: `\${${endpoints.eventsSecretVariable}}` } };
      return {
        id,
        pim: { url: endpoints.pimUrl, ...SIM_PIM_CREDENTIALS, ...events },
        service: { url: endpoints.serviceUrl, token: SIM_SERVICE_TOKEN },
        allowed_options_for_pim_attribute_addition: [...(args.allowedAttributes?.[id] ?? [])],
        ...(endpoints.scheduleCron === undefined ? {} : { schedule: { cron: endpoints.scheduleCron, timezone: "UTC" } }),
      };
    }),
  };
  settingsSchema.parse(config);
  return config;
}

/** The config written as `config.json` in `dir`, for the processes' `--config`; its path. */
export async function writeFleetWorkerConfig(dir: string, args: FleetWorkerConfigArgs): Promise<string> {
  const path = join(dir, "config.json");
  await writeFile(path, JSON.stringify(fleetWorkerConfig(args)));
  return path;
}
