import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";
import type { AuthGate } from "../auth/auth-gate.js";
import { bearerTokenMatches } from "../auth/bearer-token-matches.js";

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
  app.get("/metrics", async (request, reply) => {
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
