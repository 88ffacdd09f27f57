import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { dailyWriteCounts } from "../../stores/history/daily-write-counts.js";
import { parseSince } from "../../stores/history/parse-since.js";
import { BadHistoryCursor, queryHistory } from "../../stores/history/query-history.js";
import { inKeyStyle, type JsonKeyStyle } from "../../core/json/json-key-style.js";
import { HIDDEN_ROUTE } from "../openapi/route-schema.js";
import type { CancelledWithRequest } from "../http/cancelled-with-request.js";
import { CONSOLE_HEADERS } from "../http/security-headers.js";
import { consoleRouteSchemas } from "./admin-route-schemas.js";
import type { AdminIdentity } from "./authenticate-admin.js";
import { CONSOLE_SCRIPT, CONSOLE_STYLE } from "./console-assets.js";
import { historyMain } from "./console-history-page.js";
import { consoleDocument, escapeHtml } from "./console-html.js";
import { overviewMain } from "./console-overview-page.js";
import { fleetOverview, type FleetSources } from "./fleet-overview.js";
import type { ReviewAdmin } from "./review-admin-routes.js";

export interface ConsoleOptions {
  readonly sources: FleetSources;
  readonly review: ReviewAdmin;
  /** How far back the history goes (`history.retention_ms`): the span of the chart. */
  readonly retentionMs: number;
  readonly queueOf: (project: number) => string;
  readonly keyStyle: JsonKeyStyle;
  readonly identityOf: (request: FastifyRequest) => AdminIdentity | undefined;
}

const HISTORY_PAGE = 100;
const projectParam = z.coerce.number().int();
/** A form sends its empty fields as empty strings: those are no filter. */
const field = z
  .string()
  .optional()
  .transform((text) => (text === undefined || text.trim() === "" ? undefined : text.trim()));
const pageQuery = z.object({ collection: field, option: field, since: field, cursor: field });

/**
 * The operator console, inside adminRoutes' `/admin` scope (its login and route table apply):
 * `GET /admin/console` (the fleet, held deletions and budgets), `GET /admin/console/projects/:id/history`
 * (search and chart), their script and stylesheet, and the JSON they rest on that no other
 * route gives (`GET /admin/api/overview`, `GET /admin/api/projects/:id/history/daily`). Approving
 * and syncing go through the existing POST routes, which refuse a viewer whatever the page shows.
 */
export function consoleRoutes(
  app: FastifyInstance,
  options: ConsoleOptions,
  inTime: <T>(work: Promise<T>) => Promise<T>,
  cancellable: CancelledWithRequest,
): void {
  const schemas = consoleRouteSchemas(options.keyStyle);
  const projects = new Set(options.sources.projects);
  const projectOf = (id: string): number | null => {
    const parsed = projectParam.safeParse(id);
    return parsed.success && projects.has(parsed.data) ? parsed.data : null;
  };
  // The history's reads stop with their request (gone, or out of time): see cancelledWithRequest.
  const daysOf = (project: number, signal: AbortSignal) => {
    const nowMs = Date.now();
    return dailyWriteCounts(options.review.history, project, { sinceMs: nowMs - options.retentionMs, nowMs, signal });
  };
  const page = (request: FastifyRequest, reply: FastifyReply, status: number, title: string, main: string): FastifyReply => {
    const identity = options.identityOf(request);
    reply.helmet(CONSOLE_HEADERS);
    return reply
      .code(status)
      .type("text/html; charset=utf-8")
      .send(consoleDocument({ title, user: identity?.name ?? "", role: identity?.role ?? "", main }));
  };

  app.get("/console", { schema: HIDDEN_ROUTE }, async (request, reply) => {
    const overview = await inTime(fleetOverview(options.sources, Date.now()));
    return page(request, reply, 200, "Overview", overviewMain(overview, options.identityOf(request)?.role === "admin"));
  });

  app.get<{ Params: { id: string } }>("/console/projects/:id/history", { schema: HIDDEN_ROUTE }, async (request, reply) => {
    const project = projectOf(request.params.id);
    if (project === null)
      return page(request, reply, 404, "Not found", `<h1>Not found</h1><p>Project ${escapeHtml(request.params.id)} is not configured.</p>`);
    const search = pageQuery.parse(request.query);
    const problems: string[] = [];
    let sinceMs = 0;
    if (search.since !== undefined) {
      const since = parseSince(search.since, Date.now());
      if ("error" in since) problems.push(since.error);
      else sinceMs = since.sinceMs;
    }
    let entries: Awaited<ReturnType<typeof queryHistory>> = { entries: [], next: null };
    if (problems.length === 0) {
      try {
        entries = await cancellable(reply, (signal) =>
          queryHistory(options.review.history, project, {
            collection: search.collection,
            option: search.option,
            sinceMs,
            limit: HISTORY_PAGE,
            cursor: search.cursor,
            signal,
          }),
        );
      } catch (error) {
        if (!(error instanceof BadHistoryCursor)) throw error;
        problems.push(error.message);
      }
    }
    const days = await cancellable(reply, (signal) => daysOf(project, signal));
    const main = historyMain({
      project,
      queue: options.queueOf(project),
      search,
      entries: entries.entries,
      nextCursor: entries.next,
      days,
      problems,
    });
    return page(request, reply, problems.length === 0 ? 200 : 400, `Project ${project} history`, main);
  });

  app.get("/console/console.js", { schema: HIDDEN_ROUTE }, async (_request, reply) => {
    reply.helmet(CONSOLE_HEADERS);
    return reply.type("text/javascript; charset=utf-8").send(CONSOLE_SCRIPT);
  });
  app.get("/console/console.css", { schema: HIDDEN_ROUTE }, async (_request, reply) => {
    reply.helmet(CONSOLE_HEADERS);
    return reply.type("text/css; charset=utf-8").send(CONSOLE_STYLE);
  });

  app.get("/api/overview", { schema: schemas.overview }, async () =>
    inKeyStyle(await inTime(fleetOverview(options.sources, Date.now())), options.keyStyle),
  );

  app.get<{ Params: { id: string } }>("/api/projects/:id/history/daily", { schema: schemas.historyDaily }, async (request, reply) => {
    const project = projectOf(request.params.id);
    if (project === null) return reply.code(404).send({ error: `project ${request.params.id} is not configured` });
    return { days: inKeyStyle(await cancellable(reply, (signal) => daysOf(project, signal)), options.keyStyle) };
  });
}
