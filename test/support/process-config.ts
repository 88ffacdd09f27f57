import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunningSimulators } from "../../sim/start-simulators.js";
import { TEST_REDIS_URL, type TestRedis } from "./redis.js";

/** The simulators' default credentials (see sim/): what a config pointing at them uses. */
export const SIM_CREDENTIALS = {
  pim: { client_id: "sim-client", secret: "sim-secret", username: "sim-user", password: "sim-password" },
  serviceToken: "sim-service-token",
} as const;

/** Every secret a test config holds, to check that no output or response repeats one. */
export const SIM_SECRETS: readonly string[] = [SIM_CREDENTIALS.pim.secret, SIM_CREDENTIALS.pim.password, SIM_CREDENTIALS.serviceToken];

export interface TestConfigInput {
  readonly pimUrl: string;
  readonly serviceUrl: string;
  /** The Redis key prefix (from createTestRedis); null for a config without `redis`. */
  readonly redisPrefix: string | null;
  readonly project?: number;
  /** Several projects, alike but for their id (in place of `project`). */
  readonly projects?: readonly number[];
  readonly logLevel?: string;
  /** Merged into the project entry (allowlist, service budget...). */
  readonly projectExtras?: Readonly<Record<string, unknown>>;
  /** Merged into the service connection (e.g. `requests_per_second`). */
  readonly serviceExtras?: Readonly<Record<string, unknown>>;
  readonly worker?: Readonly<Record<string, unknown>>;
  readonly trigger?: Readonly<Record<string, unknown>>;
  /** The HTTP listener (`server`: host, port, admin users...). */
  readonly server?: Readonly<Record<string, unknown>>;
  readonly addOptions?: Readonly<Record<string, unknown>>;
  readonly http?: Readonly<Record<string, unknown>>;
  readonly stateDir?: string;
  /** More top-level keys (`budgets`, a `redis` of another URL...), put over what the rest made. */
  readonly topLevel?: Readonly<Record<string, unknown>>;
}

/** Where a config points the upstreams a test never reaches: nothing listens on port 9. */
export const UNREACHED_URL = "http://127.0.0.1:9";

/** A config input for commands or workers that never reach an upstream; `redisPrefix` null: no `redis`. */
export function configInputWithoutUpstreams(redisPrefix: string | null, extras: TestConfigExtras = {}): TestConfigInput {
  return { pimUrl: UNREACHED_URL, serviceUrl: UNREACHED_URL, redisPrefix, ...extras };
}

/** The simulators and the test Redis a config points at (the `sims` and `redis` fixtures). */
export interface ConfigTargets {
  readonly sims: RunningSimulators;
  readonly redis: TestRedis;
}

/** What a test config says besides where the simulators and Redis are. */
export type TestConfigExtras = Omit<TestConfigInput, "pimUrl" | "serviceUrl" | "redisPrefix">;

/** A config input against the test's simulators and its Redis key prefix. */
export function configInputFor({ sims, redis }: ConfigTargets, extras: TestConfigExtras = {}): TestConfigInput {
  return { pimUrl: sims.pim.url, serviceUrl: sims.service.url, redisPrefix: redis.prefix, ...extras };
}

/**
 * A config object (as a user would write it) for one project against the simulators, with fast
 * worker timings: locks of 2 s, stalled checks every second, a 20 s shutdown deadline.
 */
export function testConfigObject(input: TestConfigInput): Record<string, unknown> {
  return {
    ...(input.redisPrefix === null ? {} : { redis: { url: TEST_REDIS_URL, prefix: input.redisPrefix } }),
    ...(input.stateDir === undefined ? {} : { state_dir: input.stateDir }),
    log_level: input.logLevel ?? "silent",
    http: { timeout_ms: 5_000, max_attempts: 3, base_delay_ms: 10, max_delay_ms: 100, max_retry_after_ms: 5_000, ...input.http },
    worker: { lock_duration_ms: 2000, stalled_interval_ms: 1000, max_stalled_count: 2, shutdown_timeout_ms: 20_000, ...input.worker },
    ...(input.trigger === undefined ? {} : { trigger: input.trigger }),
    ...(input.server === undefined ? {} : { server: input.server }),
    add_options: { visibility_attempts: 5, visibility_delay_ms: 50, ...input.addOptions },
    projects: (input.projects ?? [input.project ?? 67]).map((id) => ({
      id,
      pim: { url: input.pimUrl, ...SIM_CREDENTIALS.pim },
      service: { url: input.serviceUrl, token: SIM_CREDENTIALS.serviceToken, ...input.serviceExtras },
      ...input.projectExtras,
    })),
    ...input.topLevel,
  };
}

/** Writes the config as JSON (a subset of YAML) into `dir` and returns its path. */
export async function writeTestConfig(dir: string, input: TestConfigInput, fileName = "config.json"): Promise<string> {
  const path = join(dir, fileName);
  await writeFile(path, `${JSON.stringify(testConfigObject(input), null, 2)}\n`);
  return path;
}
