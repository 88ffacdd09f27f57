import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SIM_ACTIVATION_CONNECTION_ID, SIM_ACTIVATION_TOKEN } from "../../../../sim/activation/activation-simulator.js";
import { TEST_REDIS_URL } from "../../../support/redis.js";

/** Nothing listens here: the sync part of these configs is never used. */
const UNUSED = "http://127.0.0.1:9";

/** A config with a project the Activation commands never touch, and an `activation` section for the simulator. */
export function activationConfig(input: {
  readonly activationUrl: string;
  readonly stateDir: string;
  readonly redisPrefix?: string;
  readonly activation?: Readonly<Record<string, unknown>>;
  readonly trigger?: Readonly<Record<string, unknown>>;
  readonly http?: Readonly<Record<string, unknown>>;
}): Record<string, unknown> {
  return {
    ...(input.redisPrefix === undefined ? {} : { redis: { url: TEST_REDIS_URL, prefix: input.redisPrefix } }),
    state_dir: input.stateDir,
    log_level: "silent",
    http: { timeout_ms: 3_000, max_attempts: 3, base_delay_ms: 10, max_delay_ms: 100, max_retry_after_ms: 5_000, ...input.http },
    worker: { lock_duration_ms: 2000, stalled_interval_ms: 1000, shutdown_timeout_ms: 10_000, safety_check_interval_ms: 1000 },
    ...(input.trigger === undefined ? {} : { trigger: input.trigger }),
    projects: [
      {
        id: 67,
        pim: { url: UNUSED, client_id: "c", secret: "s", username: "u", password: "p" },
        service: { url: UNUSED, token: "t" },
      },
    ],
    activation: {
      url: input.activationUrl,
      pim_connection_id: SIM_ACTIVATION_CONNECTION_ID,
      access_token: "${ACTIVATION_TOKEN}",
      requests_per_second: 50,
      ...input.activation,
    },
  };
}

/** The environment the configs' `${ACTIVATION_TOKEN}` reads. */
export const ACTIVATION_ENV = { ACTIVATION_TOKEN: SIM_ACTIVATION_TOKEN };

export async function writeActivationConfig(dir: string, config: Record<string, unknown>, name = "config.json"): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(config, null, 2));
  return path;
}
