import type { FastifyInstance } from "fastify";
import { HIDDEN_ROUTE } from "../openapi/route-schema.js";

/**
 * The admin's state changes are POST only: another method on one of `paths` reaches the admin
 * route table (admin-route-rules.ts), which answers 405 with `Allow: POST`, as this route does.
 */
export function answerPostOnly(app: FastifyInstance, paths: readonly string[]): void {
  for (const url of paths)
    app.route({
      method: ["GET", "PUT", "DELETE", "PATCH"],
      url,
      schema: HIDDEN_ROUTE,
      handler: async (_request, reply) => reply.code(405).header("allow", "POST").send({ error: "use POST" }),
    });
}
