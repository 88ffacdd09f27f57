/**
 * The configuration of an in-process worker driven by the benchmark: one project on the running
 * simulators (their built-in credentials), the benchmark's Redis prefix, logs at `warn`. Parsed
 * by the real schema, so defaults are the ones users get.
 */
import { settingsSchema, type Settings } from "../../src/settings/settings-schema.js";

/** The simulators' built-in PIM client and service token (as the sync child uses them). */
export const SIM_PIM_CREDENTIALS = {
  client_id: "sim-client",
  secret: "sim-secret",
  username: "sim-user",
  password: "sim-password",
} as const;
export const SIM_SERVICE_TOKEN = "sim-service-token";

export function benchWorkerSettings(args: {
  readonly redisUrl: string;
  readonly prefix: string;
  readonly project: number;
  readonly pimUrl: string;
  readonly serviceUrl: string;
  readonly allowedAttributes?: readonly string[];
  readonly addOptions?: Readonly<Record<string, unknown>>;
}): Settings {
  return settingsSchema.parse({
    redis: { url: args.redisUrl, prefix: args.prefix },
    log_level: "warn",
    ...(args.addOptions ? { add_options: { ...args.addOptions } } : {}),
    projects: [
      {
        id: args.project,
        pim: { url: args.pimUrl, ...SIM_PIM_CREDENTIALS },
        service: { url: args.serviceUrl, token: SIM_SERVICE_TOKEN },
        allowed_options_for_pim_attribute_addition: [...(args.allowedAttributes ?? [])],
      },
    ],
  });
}
