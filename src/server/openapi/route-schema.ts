import type { FastifySchema } from "fastify";
import type { z } from "zod";
import type { Answer } from "./answer-schemas.js";
import { jsonSchemaOf, type JsonSchema } from "./json-schema-of.js";
import type { SecurityRequirement } from "./security-schemes.js";

/** The extension that marks an operation whose body may be left out (see describe-http-api.ts). */
export const OPTIONAL_BODY_EXTENSION = "x-optional-body";

export interface RouteDescription {
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  /** Left out: the route is public. */
  readonly security?: readonly SecurityRequirement[];
  readonly deprecated?: boolean;
  /** The zod schemas the handler parses with: described here, parsed there (their messages are the API's). */
  readonly body?: z.ZodType;
  /** The handler reads a missing body as `{}`. */
  readonly bodyOptional?: boolean;
  readonly querystring?: z.ZodType;
  readonly params?: z.ZodType;
  readonly headers?: z.ZodType;
  /** Every answer the route gives, by status: fastify serialises each with its schema. */
  readonly answers: Readonly<Record<number, Answer>>;
}

function answerSchema(answer: Answer): JsonSchema {
  return {
    description: answer.description,
    content: { [answer.mediaType ?? "application/json"]: { schema: jsonSchemaOf(answer.schema, "output") } },
  };
}

/**
 * A route's fastify `schema`: its request parts (for the description only: the server's validator
 * compiler passes everything to the handler, which parses with the same zod schemas) and its
 * answers (fastify serialises with them, so they list every field an answer has).
 */
export function routeSchema(route: RouteDescription): FastifySchema {
  return {
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    tags: [...route.tags],
    ...(route.security === undefined ? {} : { security: route.security }),
    ...(route.deprecated === true ? { deprecated: true } : {}),
    ...(route.body === undefined ? {} : { body: jsonSchemaOf(route.body, "input") }),
    ...(route.bodyOptional === true ? { [OPTIONAL_BODY_EXTENSION]: true } : {}),
    ...(route.querystring === undefined ? {} : { querystring: jsonSchemaOf(route.querystring, "input") }),
    ...(route.params === undefined ? {} : { params: jsonSchemaOf(route.params, "input") }),
    ...(route.headers === undefined ? {} : { headers: jsonSchemaOf(route.headers, "input") }),
    response: Object.fromEntries(Object.entries(route.answers).map(([status, answer]) => [status, answerSchema(answer)])),
  };
}

/** The schema of a route left out of the description: bull-board's UI, the 405 answers of a POST route's other methods. */
export const HIDDEN_ROUTE: FastifySchema = { hide: true };
