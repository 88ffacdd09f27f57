import type { ParseArgsConfig } from "node:util";
import { JSON_KEYS_OPTION } from "./json-output.js";

/**
 * The options several commands take, each declared once: `--config FILE` means the same to every
 * command that reads a config, `--json` the same to every one that can print JSON. A command names
 * the ones it takes (`sharedOptions("config", "project", "json")`) and declares only its own.
 */
export const SHARED_OPTIONS = {
  config: { type: "string" },
  project: { type: "string" },
  connection: { type: "string" },
  once: { type: "boolean" },
  full: { type: "boolean" },
  "allow-mass-delete": { type: "boolean" },
  limit: { type: "string" },
  json: { type: "boolean" },
  ...JSON_KEYS_OPTION,
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

export type SharedOptionName = keyof typeof SHARED_OPTIONS;

/** The named shared options, in the order given, for parseCommandArgs. */
export function sharedOptions<const K extends SharedOptionName>(...names: readonly K[]): Pick<typeof SHARED_OPTIONS, K> {
  return Object.fromEntries(names.map((name) => [name, SHARED_OPTIONS[name]])) as Pick<typeof SHARED_OPTIONS, K>;
}
