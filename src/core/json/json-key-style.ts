/**
 * Every JSON answer and `--json` output uses snake_case keys, like the config, the job data and
 * the service's API. Internal objects are camelCase; they are converted on the way out, once.
 * Only keys that are camelCase identifiers change: data used as keys (locales such as `en-US`,
 * codes) is left as it is.
 *
 * `camel` (`--json-keys camel` on `sync`, `plan`, `add-options`, `jobs` and `worker`, the outputs
 * that answered camelCase before 0.2) keeps the previous shapes until JSON_KEYS_CAMEL_REMOVED_IN, so scripts
 * written against them keep working while they move.
 * `history` and `held` never answered camelCase and never took it.
 */
export type JsonKeyStyle = "snake" | "camel";

/** The release that removes `--json-keys camel`: named in its deprecation warnings and the docs. */
export const JSON_KEYS_CAMEL_REMOVED_IN = "0.3.0";

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

const SNAKE_IDENTIFIER = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

/**
 * The inverse, for `--json-keys camel` only: job results are stored snake_case, and that mode
 * shows them camelCase as earlier versions stored them. `keep`: keys earlier versions already
 * stored snake_case, left as they are.
 */
export function camelCaseKeys(value: unknown, keep: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(value)) return value.map((item) => camelCaseKeys(item, keep));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const camel =
      SNAKE_IDENTIFIER.test(key) && !keep.has(key) ? key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()) : key;
    out[camel] = camelCaseKeys(item, keep);
  }
  return out;
}

/** `value` with its keys in `style`: snake_case, or left as the internal camelCase. */
export function inKeyStyle(value: unknown, style: JsonKeyStyle): unknown {
  return style === "camel" ? value : snakeCaseKeys(value);
}
