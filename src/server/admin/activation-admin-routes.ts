import type { FastifyInstance } from "fastify";
import type { ActivationStateStore } from "../../features/activation/activation-state-store.js";
import type { ActivationQueue } from "../../jobs/queues/activation-queue.js";
import { JobDataError } from "../../jobs/catalog/job-catalog.js";
import { refusedQuery, resendBody, type AdminRouteSchemas } from "./admin-route-schemas.js";
import { enqueuedAnswer } from "../../jobs/queues/enqueued-answer.js";
import { answerPostOnly } from "./answer-post-only.js";

export interface ActivationAdmin {
  readonly queue: ActivationQueue;
  readonly state: ActivationStateStore;
}

/**
 * Set-aside orders in the admin API, registered inside adminRoutes' `/admin` scope (its
 * authentication and route table apply): `GET /admin/api/activation/refused[?connection=ID]` lists them, `POST
 * /admin/api/activation/refused/:connection/resend` `{order_ids?}` queues their re-send.
 */
export function activationAdminRoutes(
  app: FastifyInstance,
  activation: ActivationAdmin,
  inTime: <T>(work: Promise<T>) => Promise<T>,
  schemas: AdminRouteSchemas,
): void {
  app.get("/api/activation/refused", { schema: schemas.refusedOrders }, async (request, reply) => {
    const query = refusedQuery.safeParse(request.query);
    if (!query.success)
      return reply.code(400).send({ errors: query.error.issues.map((issue) => `${issue.path.join(".") || "query"}: ${issue.message}`) });
    return { refused: await inTime(activation.state.refusedOrders(query.data.connection)) };
  });

  answerPostOnly(app, ["/api/activation/refused/:connection/resend"]);

  app.post<{ Params: { connection: string } }>(
    "/api/activation/refused/:connection/resend",
    { schema: schemas.resendRefused },
    async (request, reply) => {
      const body = resendBody.safeParse(request.body ?? {});
      if (!body.success)
        return reply.code(400).send({ errors: body.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`) });
      try {
        const job = await inTime(
          activation.queue.enqueue("activation.orders.resend", {
            connection: request.params.connection,
            ...body.data,
            requested_by: "admin",
          }),
        );
        return reply.code(202).send(enqueuedAnswer(job.ref, job));
      } catch (error) {
        if (error instanceof JobDataError) return reply.code(400).send({ errors: error.problems });
        throw error;
      }
    },
  );
}
