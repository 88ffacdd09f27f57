import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";
import { z } from "zod";
import type { AuthGate } from "../auth/auth-gate.js";
import { bearerTokenMatches } from "../auth/bearer-token-matches.js";
import { refusals } from "../openapi/answer-schemas.js";
import { routeSchema } from "../openapi/route-schema.js";
import { METRICS_SECURITY } from "../openapi/security-schemes.js";

export interface MetricsRoutesOptions {
  readonly registry: Registry;
  /** When set, a scrape must send it as a bearer token. */
  readonly token?: string | undefined;
  /** Checks the token (throttled per client address); needed when `token` is set. */
  readonly gate: AuthGate;
}

/** `GET /metrics`: the process's metrics in Prometheus' text format. */
export async function metricsRoutes(app: FastifyInstance, options: MetricsRoutesOptions): Promise<void> {
  const token = options.token;
  const schema = routeSchema({
    summary: "The process's metrics (Prometheus text format)",
    tags: ["metrics"],
    ...(token === undefined ? {} : { security: METRICS_SECURITY }),
    answers: {
      200: { description: "the metrics", schema: z.string(), mediaType: "text/plain" },
      ...refusals(...(token === undefined ? [] : ([401, 429] as const)), 503),
    },
  });
  app.get("/metrics", { schema }, async (request, reply) => {
    if (token !== undefined) {
      const header = request.headers.authorization;
      const admitted = await options.gate.admit(request, reply, {
        present: header !== undefined,
        verify: () => (bearerTokenMatches(header, token) ? true : null),
        challenge: (answer) => answer.code(401).header("www-authenticate", "Bearer").send({ error: "a valid bearer token is required" }),
      });
      if (admitted === null) return reply;
    }
    const text = await options.registry.metrics();
    return reply.header("content-type", options.registry.contentType).send(text);
  });
}
