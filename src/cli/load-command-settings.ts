import { loadSettings, type LoadOptions } from "../settings/load-settings.js";
import type { Settings } from "../settings/settings-schema.js";
import { redactorOfSettings } from "../secrets/redactor-of-settings.js";
import type { CliIo } from "./cli-io.js";

/** Loads a command's config and from then on scrubs the command's output of its secrets. */
export async function loadCommandSettings(path: string, io: CliIo, options: LoadOptions = {}): Promise<Settings> {
  const settings = await loadSettings(path, io.env, options);
  io.useRedactor?.(redactorOfSettings(settings));
  return settings;
}
