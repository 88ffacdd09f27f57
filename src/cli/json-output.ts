import { once } from "node:events";
import { UsageError } from "./usage-error.js";
import { inKeyStyle, JSON_KEYS_CAMEL_REMOVED_IN, type JsonKeyStyle } from "../core/json/json-key-style.js";

export { snakeCaseKeys, type JsonKeyStyle } from "../core/json/json-key-style.js";

/** The keys' style is explained in src/core/json/json-key-style.ts. */
export function jsonText(value: unknown, style: JsonKeyStyle = "snake"): string {
  return JSON.stringify(inKeyStyle(value, style), null, 2);
}

/** The deprecation warning of `--json-keys camel`, on stderr (stdout stays the JSON a script parses). */
export const JSON_KEYS_CAMEL_WARNING = `deprecated: --json-keys camel is removed in ${JSON_KEYS_CAMEL_REMOVED_IN}; read the snake_case keys instead`;

/** The `--json-keys` option's value, checked; `camel` is warned of on `stderr` (the worker, whose stderr is JSON lines, logs it instead). */
export function parseJsonKeyStyle(
  value: string | boolean | (string | boolean)[] | undefined,
  help: string,
  stderr: NodeJS.WritableStream | null,
): JsonKeyStyle {
  if (value === undefined || value === "snake") return "snake";
  if (value === "camel") {
    stderr?.write(`${JSON_KEYS_CAMEL_WARNING}\n`);
    return "camel";
  }
  throw new UsageError(`--json-keys must be snake or camel, got '${String(value)}'`, help);
}

/** The option, for parseCommandArgs. */
export const JSON_KEYS_OPTION = { "json-keys": { type: "string" } } as const;

/** Writes `text`, and when the stream's buffer is full waits for it to drain (a listing too long to hold). */
export async function writeWaiting(stream: NodeJS.WritableStream, text: string, signal?: AbortSignal): Promise<void> {
  if (!stream.write(text)) await once(stream, "drain", signal === undefined ? {} : { signal });
}

/**
 * Writes the items as one JSON array, byte for byte what `jsonText` of the whole array prints
 * (and a newline), one item at a time: for listings too long to hold in memory at once.
 */
export async function writeJsonArray(
  stream: NodeJS.WritableStream,
  items: AsyncIterable<unknown>,
  style: JsonKeyStyle = "snake",
  signal?: AbortSignal,
): Promise<void> {
  let first = true;
  for await (const item of items) {
    signal?.throwIfAborted();
    // The item's own lines, indented as JSON.stringify indents an array's elements.
    const text = `  ${jsonText(item, style).replaceAll("\n", "\n  ")}`;
    await writeWaiting(stream, first ? `[\n${text}` : `,\n${text}`, signal);
    first = false;
  }
  await writeWaiting(stream, first ? "[]\n" : "\n]\n", signal);
}
