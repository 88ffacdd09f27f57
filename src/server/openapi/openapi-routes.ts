import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { answer, refusals } from "./answer-schemas.js";
import { routeSchema } from "./route-schema.js";

/** Where the description is served. */
export const OPENAPI_PATH = "/openapi.json";

/**
 * `GET /openapi.json`: the app's OpenAPI 3.1 description (describe-http-api.ts). Public, like
 * `/healthz`: it names routes and shapes, never a configured value or a secret, and every route
 * it lists still asks for its own credentials; a client generator or a gateway can read it
 * without holding any of them.
 */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  const schema = routeSchema({
    summary: "This description (OpenAPI 3.1)",
    tags: ["description"],
    answers: { 200: answer("the OpenAPI 3.1 document", z.record(z.string(), z.unknown())), ...refusals(503) },
  });
  app.get(OPENAPI_PATH, { schema }, async () => app.swagger());
}
