import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";
import { bearerTokenMatches } from "../trigger/bearer-token-matches.js";

export interface MetricsRoutesOptions {
  readonly registry: Registry;
  /** When set, a scrape must send it as a bearer token. */
  readonly token?: string | undefined;
}

/** `GET /metrics`: the process's metrics in Prometheus' text format. */
export async function metricsRoutes(app: FastifyInstance, options: MetricsRoutesOptions): Promise<void> {
  app.get("/metrics", async (request, reply) => {
    if (options.token !== undefined && !bearerTokenMatches(request.headers.authorization, options.token)) {
      return reply.code(401).header("www-authenticate", "Bearer").send({ error: "a valid bearer token is required" });
    }
    const text = await options.registry.metrics();
    return reply.header("content-type", options.registry.contentType).send(text);
  });
}
