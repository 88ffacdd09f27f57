import type { z } from "zod";
import { settingsReference } from "./settings-reference.js";
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
  const keys = new Set(
    settingsReference(schema)
      .filter((row) => row.secret)
      .map((row) => row.key),
  );
  return (path) => keys.has(referenceKeyOf(path));
}

/** The secret paths of pim-sync's settings schema. */
export const isSecretPath = secretPathsOf(settingsSchema);
