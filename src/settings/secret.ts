import type { z } from "zod";

/**
 * Marks a settings key as a secret (a credential for an upstream, the trigger or the server), in
 * the schema that is the one home of every key: the redaction of logs, errors, job data and
 * answers (src/infra/secrets/redactor-of-settings.ts), the keys the commands that call no
 * upstream accept unset (isSecretPath) and the reference's "secret" column are read from this
 * mark, so a new secret key needs nothing else. The mark is zod metadata, which the schema's JSON
 * Schema carries as `secret: true`.
 */
export function secret<T extends z.ZodType>(schema: T): T {
  return schema.meta({ secret: true });
}
