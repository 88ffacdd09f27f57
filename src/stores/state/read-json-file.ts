import type { z } from "zod";
import { readTextIfExists } from "./read-text-if-exists.js";

/**
 * A state file parsed with its schema, or `empty` when it does not exist yet. A file that is not
 * JSON, or not of the schema's shape, is thrown on as `corrupt <what> <path>: <why>`: the
 * caller's data is never read past what it can trust.
 */
export async function readJsonFile<S extends z.ZodType, E = z.output<S>>(
  path: string,
  schema: S,
  what: string,
  empty: E,
): Promise<z.output<S> | E> {
  const text = await readTextIfExists(path);
  if (text === null) return empty;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`corrupt ${what} ${path}: not JSON`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Error(`corrupt ${what} ${path}: ${parsed.error.issues[0]?.message ?? "unexpected shape"}`);
  return parsed.data;
}
