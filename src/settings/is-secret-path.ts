import { z } from "zod";
import { settingsSchema } from "./settings-schema.js";

/** A path into the config document (`["projects", 0, "pim", "secret"]`) as a reference key (`projects[].pim.secret`). */
export function referenceKeyOf(path: readonly (string | number)[]): string {
  return path.reduce<string>((key, part) => (typeof part === "number" ? `${key}[]` : key === "" ? part : `${key}.${part}`), "");
}

/**
 * Whether a path of a config document following `schema` holds a key marked with `secret()`
 * (src/settings/secret.ts). The commands that never call the upstreams accept them unset; every
 * one of them is removed from logs, errors and answers (src/infra/secrets/redactor-of-settings.ts).
 */
export function secretPathsOf(schema: z.ZodType): (path: readonly (string | number)[]) => boolean {
  const keys = secretKeysOf(schema);
  return (path) => keys.has(referenceKeyOf(path));
}

/**
 * The reference keys (`projects[].pim.secret`) of the keys marked with `secret()`, found by
 * walking the schema through zod's public classes. Every command asks this at start, so it does
 * not go through the schema's JSON Schema as the settings reference does: converting the whole
 * schema took about 40 ms of a `jobs list` (docs/benchmarks.md, "Capacity and start-up").
 * test/unit/settings/secret.test.ts checks that both find the same keys.
 */
export function secretKeysOf(schema: z.ZodType): ReadonlySet<string> {
  const keys = new Set<string>();
  collectSecretKeys(schema, "", keys);
  return keys;
}

function collectSecretKeys(schema: z.core.$ZodType, key: string, into: Set<string>): void {
  // The registry reads the marks of the schemas this one was cloned from too (a `.describe()`
  // after `secret()` is a clone).
  if (z.globalRegistry.get(schema)?.["secret"] === true) into.add(key);
  if (schema instanceof z.ZodObject)
    for (const [name, child] of Object.entries<z.core.$ZodType>(schema.shape))
      collectSecretKeys(child, key === "" ? name : `${key}.${name}`, into);
  else if (schema instanceof z.ZodArray) collectSecretKeys(schema.element, `${key}[]`, into);
  else if (schema instanceof z.ZodUnion) for (const option of schema.options) collectSecretKeys(option, key, into);
  else if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodReadonly ||
    schema instanceof z.ZodCatch ||
    schema instanceof z.ZodNonOptional
  )
    collectSecretKeys(schema.unwrap(), key, into);
  // What users write: the input side of a pipe, as the settings reference reads it.
  else if (schema instanceof z.ZodPipe) collectSecretKeys(schema.in, key, into);
  else if (
    schema instanceof z.ZodRecord ||
    schema instanceof z.ZodMap ||
    schema instanceof z.ZodTuple ||
    schema instanceof z.ZodIntersection ||
    schema instanceof z.ZodLazy
  )
    // Keys of these would be missed, and a missed secret would leak: refuse rather than guess.
    throw new Error(`secretKeysOf: ${key || "the schema"} is a ${schema._zod.def.type}, which the walk does not read`);
}

/** The secret paths of pim-sync's settings schema. */
export const isSecretPath = secretPathsOf(settingsSchema);
