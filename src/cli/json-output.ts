import { UsageError } from "./usage-error.js";

/**
 * Every `--json` output uses snake_case keys, like the config, the job data and the service's
 * API. Internal objects are camelCase; they are converted here, once, on the way out. Only keys
 * that are camelCase identifiers change: data used as keys (locales such as `en-US`, codes) is
 * left as it is.
 *
 * `--json-keys camel` prints the previous camelCase shape of `sync`, `add-options` and `jobs`
 * for one more release (scripts written against it keep working while they move).
 */
export type JsonKeyStyle = "snake" | "camel";

const CAMEL_IDENTIFIER = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;

export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const snake = CAMEL_IDENTIFIER.test(key) ? key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) : key;
    out[snake] = snakeCaseKeys(item);
  }
  return out;
}

export function jsonText(value: unknown, style: JsonKeyStyle = "snake"): string {
  return JSON.stringify(style === "camel" ? value : snakeCaseKeys(value), null, 2);
}

/** The `--json-keys` option's value, checked. */
export function parseJsonKeyStyle(value: string | boolean | (string | boolean)[] | undefined, help: string): JsonKeyStyle {
  if (value === undefined || value === "snake") return "snake";
  if (value === "camel") return "camel";
  throw new UsageError(`--json-keys must be snake or camel, got '${String(value)}'`, help);
}

/** The option, for parseCommandArgs. */
export const JSON_KEYS_OPTION = { "json-keys": { type: "string" } } as const;
