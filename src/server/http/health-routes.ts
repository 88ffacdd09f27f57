import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { answer, errorAnswer, refusals } from "../openapi/answer-schemas.js";
import { routeSchema } from "../openapi/route-schema.js";

export interface HealthRoutesOptions {
  /** Why the worker cannot do its work now; empty when it can. */
  readonly notReadyReasons: () => Promise<readonly string[]>;
}

const aliveAnswer = z.object({ status: z.literal("ok") });
const readyAnswer = z.object({ status: z.literal("ready") });
const notReadyAnswer = z.object({ status: z.literal("not ready"), reasons: z.array(z.string()).min(1) });

const aliveSchema = (deprecated: boolean) =>
  routeSchema({
    summary: deprecated ? "Liveness (the trigger endpoint's old name of /healthz)" : "Liveness: the process answers",
    description: "For a liveness probe: restart the process when this fails.",
    tags: ["health"],
    deprecated,
    answers: { 200: answer("the process answers", aliveAnswer), ...refusals(503) },
  });

/**
 * `GET /healthz`: the process answers (for a liveness probe: restart it when this fails).
 * `GET /readyz`: Redis answers and every project's worker runs; 503 with the reasons otherwise.
 * `GET /health` stays as the trigger endpoint's old name of `/healthz`.
 */
export async function healthRoutes(app: FastifyInstance, options: HealthRoutesOptions): Promise<void> {
  const alive = async (): Promise<z.output<typeof aliveAnswer>> => ({ status: "ok" });
  app.get("/healthz", { schema: aliveSchema(false) }, alive);
  app.get("/health", { schema: aliveSchema(true) }, alive);
  const readySchema = routeSchema({
    summary: "Readiness: Redis answers and every project's worker runs",
    tags: ["health"],
    answers: {
      200: answer("ready to work", readyAnswer),
      // A failure of the check itself is answered by the server's error handler.
      503: answer("not ready: `reasons` says why (or `error`, when the check itself failed)", z.union([notReadyAnswer, errorAnswer])),
    },
  });
  app.get("/readyz", { schema: readySchema }, async (_request, reply) => {
    const reasons = await options.notReadyReasons();
    if (reasons.length > 0)
      return reply.code(503).send({ status: "not ready", reasons: [...reasons] } satisfies z.output<typeof notReadyAnswer>);
    return { status: "ready" } satisfies z.output<typeof readyAnswer>;
  });
}
