/**
 * Every JSON answer and `--json` output uses snake_case keys, like the config, the job data and
 * the service's API. Internal objects are camelCase; they are converted on the way out, once.
 * Only keys that are camelCase identifiers change: data used as keys (locales such as `en-US`,
 * codes) is left as it is.
 *
 * `camel` (`--json-keys camel` on the CLI commands and on `worker`) keeps the previous shapes for
 * one more release, so scripts written against them keep working while they move.
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

/** `value` with its keys in `style`: snake_case, or left as the internal camelCase. */
export function inKeyStyle(value: unknown, style: JsonKeyStyle): unknown {
  return style === "camel" ? value : snakeCaseKeys(value);
}
