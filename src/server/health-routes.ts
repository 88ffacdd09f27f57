import type { FastifyInstance } from "fastify";

export interface HealthRoutesOptions {
  /** Why the worker cannot do its work now; empty when it can. */
  readonly notReadyReasons: () => Promise<readonly string[]>;
}

/**
 * `GET /healthz`: the process answers (for a liveness probe: restart it when this fails).
 * `GET /readyz`: Redis answers and every project's worker runs; 503 with the reasons otherwise.
 * `GET /health` stays as the trigger endpoint's old name of `/healthz`.
 */
export async function healthRoutes(app: FastifyInstance, options: HealthRoutesOptions): Promise<void> {
  const alive = async (): Promise<{ status: string }> => ({ status: "ok" });
  app.get("/healthz", alive);
  app.get("/health", alive);
  app.get("/readyz", async (_request, reply) => {
    const reasons = await options.notReadyReasons();
    if (reasons.length > 0) return reply.code(503).send({ status: "not ready", reasons });
    return { status: "ready" };
  });
}
