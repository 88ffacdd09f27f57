import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { approveHeldPlan } from "../../features/sync/held/approve-held-plan.js";
import { dismissHeldPlan } from "../../features/sync/held/dismiss-held-plan.js";
import type { HeldStore } from "../../features/sync/held/held-store.js";
import type { HistoryStore } from "../../stores/history/history-store.js";
import { parseSince } from "../../stores/history/parse-since.js";
import { BadHistoryCursor, queryHistory } from "../../stores/history/query-history.js";
import { snakeCaseKeys } from "../../core/json/json-key-style.js";
import { reviewRouteSchemas } from "./admin-route-schemas.js";
import { answerPostOnly } from "./answer-post-only.js";

/** The change history and the held plans, for the admin API. */
export interface ReviewAdmin {
  readonly history: HistoryStore;
  readonly held: HeldStore;
}

const DEFAULT_PAGE = 100;
const historyQuery = z.strictObject({
  collection: z.string().min(1).optional(),
  option: z.string().min(1).optional(),
  since: z.string().min(1).optional(),
  cursor: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(DEFAULT_PAGE),
});
const projectParam = z.coerce.number().int();

function problemsOf(error: z.ZodError, where: string): string[] {
  return error.issues.map((issue) => `${issue.path.join(".") || where}: ${issue.message}`);
}

/**
 * Registered inside adminRoutes' `/admin` scope (its authentication and route table apply):
 * `GET /admin/api/projects/:id/history?collection=&option=&since=&cursor=&limit=` pages the
 * change history newest first (`next_cursor` for the next page); `GET /admin/api/projects/:id/held`
 * lists the held plans; `POST /admin/api/projects/:id/held/:heldId/approve` approves one and
 * `POST .../dismiss` dismisses one (admins only, see admin-route-rules.ts).
 */
export function reviewAdminRoutes(
  app: FastifyInstance,
  options: {
    readonly review: ReviewAdmin;
    readonly projects: ReadonlySet<number>;
    readonly userOf: (request: FastifyRequest) => string;
  },
  inTime: <T>(work: Promise<T>) => Promise<T>,
): void {
  const { review, projects } = options;
  const schemas = reviewRouteSchemas;
  const projectOf = (id: string): number | null => {
    const parsed = projectParam.safeParse(id);
    return parsed.success && projects.has(parsed.data) ? parsed.data : null;
  };

  app.get<{ Params: { id: string } }>("/api/projects/:id/history", { schema: schemas.history }, async (request, reply) => {
    const project = projectOf(request.params.id);
    if (project === null) return reply.code(404).send({ error: `project ${request.params.id} is not configured` });
    const query = historyQuery.safeParse(request.query);
    if (!query.success) return reply.code(400).send({ errors: problemsOf(query.error, "query") });
    let sinceMs = 0;
    if (query.data.since !== undefined) {
      const since = parseSince(query.data.since, Date.now());
      if ("error" in since) return reply.code(400).send({ errors: [since.error] });
      sinceMs = since.sinceMs;
    }
    try {
      const page = await inTime(
        queryHistory(review.history, project, {
          collection: query.data.collection,
          option: query.data.option,
          sinceMs,
          limit: query.data.limit,
          cursor: query.data.cursor,
        }),
      );
      return { entries: snakeCaseKeys(page.entries), next_cursor: page.next };
    } catch (error) {
      if (error instanceof BadHistoryCursor) return reply.code(400).send({ errors: [error.message] });
      throw error;
    }
  });

  app.get<{ Params: { id: string } }>("/api/projects/:id/held", { schema: schemas.held }, async (request, reply) => {
    const project = projectOf(request.params.id);
    if (project === null) return reply.code(404).send({ error: `project ${request.params.id} is not configured` });
    return { held: snakeCaseKeys(await inTime(review.held.list(project))) };
  });

  answerPostOnly(app, ["/api/projects/:id/held/:heldId/approve", "/api/projects/:id/held/:heldId/dismiss"]);

  app.post<{ Params: { id: string; heldId: string } }>(
    "/api/projects/:id/held/:heldId/approve",
    { schema: schemas.approveHeld },
    async (request, reply) => {
      const project = projectOf(request.params.id);
      if (project === null) return reply.code(404).send({ error: `project ${request.params.id} is not configured` });
      const result = await inTime(approveHeldPlan(review.held, project, request.params.heldId, options.userOf(request)));
      if ("notFound" in result) return reply.code(404).send({ error: result.notFound });
      if ("conflict" in result) return reply.code(409).send({ error: result.conflict });
      return { approved: snakeCaseKeys(result.approved) };
    },
  );

  app.post<{ Params: { id: string; heldId: string } }>(
    "/api/projects/:id/held/:heldId/dismiss",
    { schema: schemas.dismissHeld },
    async (request, reply) => {
      const project = projectOf(request.params.id);
      if (project === null) return reply.code(404).send({ error: `project ${request.params.id} is not configured` });
      const result = await inTime(
        dismissHeldPlan({
          held: review.held,
          history: review.history,
          project,
          id: request.params.heldId,
          by: options.userOf(request),
          trigger: "admin",
        }),
      );
      if ("notFound" in result) return reply.code(404).send({ error: result.notFound });
      if ("conflict" in result) return reply.code(409).send({ error: result.conflict });
      return { dismissed: snakeCaseKeys(result.dismissed) };
    },
  );
}
