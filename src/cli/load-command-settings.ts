import { loadSettings, type LoadOptions } from "../settings/load-settings.js";
import type { Settings } from "../settings/settings-schema.js";
import { redactorOfSettings } from "../infra/secrets/redactor-of-settings.js";
import { boundHeapGrowth } from "../infra/memory/bound-heap-growth.js";
import type { CliIo } from "./cli-io.js";

/**
 * Loads a command's config, from then on scrubs the command's output of its secrets, and bounds
 * the process's heap growth as the config says (before the command allocates its data).
 */
export async function loadCommandSettings(path: string, io: CliIo, options: LoadOptions = {}): Promise<Settings> {
  const settings = await loadSettings(path, io.env, options);
  io.useRedactor?.(redactorOfSettings(settings));
  boundHeapGrowth(settings.memory.heap_growing_percent);
  return settings;
}
