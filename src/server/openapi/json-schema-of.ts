import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema (2020-12, OpenAPI 3.1's dialect) of a zod schema: `input` for what a client
 * sends (defaults make a field optional), `output` for what the server answers. Refinements and
 * transforms have no JSON form and are left out: the zod schema stays the parser of record.
 * `$schema` is dropped: fastify's serialiser compiles the schema with its own draft.
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" });
  return rest;
}
