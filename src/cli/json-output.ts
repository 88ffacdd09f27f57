import { UsageError } from "./usage-error.js";
import { inKeyStyle, type JsonKeyStyle } from "../json/json-key-style.js";

export { snakeCaseKeys, type JsonKeyStyle } from "../json/json-key-style.js";

/** The keys' style is explained in src/json/json-key-style.ts. */
export function jsonText(value: unknown, style: JsonKeyStyle = "snake"): string {
  return JSON.stringify(inKeyStyle(value, style), null, 2);
}

/** The `--json-keys` option's value, checked. */
export function parseJsonKeyStyle(value: string | boolean | (string | boolean)[] | undefined, help: string): JsonKeyStyle {
  if (value === undefined || value === "snake") return "snake";
  if (value === "camel") return "camel";
  throw new UsageError(`--json-keys must be snake or camel, got '${String(value)}'`, help);
}

/** The option, for parseCommandArgs. */
export const JSON_KEYS_OPTION = { "json-keys": { type: "string" } } as const;
