import { parseSettings } from "../../src/settings/load-settings.js";
import type { Settings } from "../../src/settings/settings-schema.js";
import { testConfigObject, type TestConfigInput } from "./process-config.js";

/**
 * The settings a worker started in the test's process gets from a test config, read as the
 * worker command reads its file (`${VAR}` from `env`).
 */
export function testSettings(input: TestConfigInput, env: Readonly<Record<string, string>> = {}): Settings {
  return parseSettings(JSON.stringify(testConfigObject(input)), "test-config", env);
}
