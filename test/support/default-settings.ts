import { retryPolicyOf } from "../../src/infra/http/retry-policy-of.js";
import type { RetryPolicy } from "../../src/infra/http/retry-policy.js";
import { parseSettings } from "../../src/settings/load-settings.js";
import type { ProjectSettings, Settings } from "../../src/settings/settings-schema.js";

/**
 * The settings schema's defaults, as a config with one project and nothing else parses: tests
 * that build a client by hand take its numbers from here, so the schema stays their only home.
 */
export const DEFAULT_SETTINGS: Settings = parseSettings(
  JSON.stringify({
    projects: [
      {
        id: 1,
        pim: { url: "http://pim.invalid", client_id: "client", secret: "secret", username: "user", password: "password" },
        service: { url: "http://service.invalid", token: "token" },
      },
    ],
  }),
  "default-settings",
  {},
);

const [project] = DEFAULT_SETTINGS.projects;
if (project === undefined) throw new Error("the default settings have no project");
/** The project of DEFAULT_SETTINGS: every per-project default. */
export const DEFAULT_PROJECT: ProjectSettings = project;

/** The `http` section's retry policy. */
export const DEFAULT_RETRY: RetryPolicy = retryPolicyOf(DEFAULT_SETTINGS);

/** The options a PIM client takes from the settings, at their defaults. */
export const DEFAULT_PIM_CLIENT_LIMITS = {
  retry: DEFAULT_RETRY,
  timeoutMs: DEFAULT_SETTINGS.http.timeout_ms,
  maxInFlight: DEFAULT_PROJECT.pim.max_in_flight,
  requestsPerSecond: DEFAULT_PROJECT.pim.requests_per_second,
  optionWritesPerSecond: DEFAULT_PROJECT.pim.option_writes_per_second,
} as const;

/** The options a configuration-service client takes from the settings, at their defaults. */
export const DEFAULT_SERVICE_CLIENT_LIMITS = {
  retry: DEFAULT_RETRY,
  timeoutMs: DEFAULT_SETTINGS.http.timeout_ms,
  maxInFlight: DEFAULT_PROJECT.service.max_in_flight,
  requestsPerSecond: DEFAULT_PROJECT.service.requests_per_second,
} as const;
