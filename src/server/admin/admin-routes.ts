import { randomUUID } from "node:crypto";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { createBullBoard } from "@bull-board/api";
import { FastifyAdapter } from "@bull-board/fastify";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { z } from "zod";
import type { AuthGate } from "../auth/auth-gate.js";
import { JobNotFoundError, jobDetailsInKeyStyle, listedOutcomeOf, storedResultOf, type JobAdmin } from "../../jobs/admin/job-admin.js";
import type { JobQueues } from "../../jobs/queues/job-queues.js";
import { ACTIVATION_QUEUE } from "../../infra/redis/queue-names.js";
import { cancelledWithRequest } from "../http/cancelled-with-request.js";
import { withRedisDeadline } from "../http/redis-deadline.js";
import { DASHBOARD_HEADERS } from "../http/security-headers.js";
import type { AdminUser } from "../../settings/settings-schema.js";
import { activationAdminRoutes, type ActivationAdmin } from "./activation-admin-routes.js";
import { adminRouteRules, type AdminRouteRule } from "./admin-route-rules.js";
import { authenticateAdmin, basicUserName, type AdminIdentity } from "./authenticate-admin.js";
import { crossSiteProblem } from "./cross-site-problem.js";
import { decideAdminRequest } from "./decide-admin-request.js";
import { inKeyStyle, type JsonKeyStyle } from "../../core/json/json-key-style.js";
import { HIDDEN_ROUTE } from "../openapi/route-schema.js";
import { adminRouteSchemas, listQuery, resyncBody, syncBody } from "./admin-route-schemas.js";
import { reviewAdminRoutes, type ReviewAdmin } from "./review-admin-routes.js";
import { consoleRoutes } from "./console-routes.js";
import type { FleetSources } from "./fleet-overview.js";
import { enqueuedAnswer } from "../../jobs/queues/enqueued-answer.js";

export interface AdminRoutesOptions {
  readonly users: readonly AdminUser[];
  readonly admin: JobAdmin;
  readonly queues: JobQueues;
  readonly logger: Logger;
  readonly redisTimeoutMs: number;
  /** The Activation queue (on the dashboard) and its set-aside orders, when `activation` is configured. */
  readonly activation?: ActivationAdmin | undefined;
  /** The change history and the held deletions of the projects. */
  readonly review: ReviewAdmin;
  /** What the operator console (`/admin/console`) reads beyond the queues and the review stores. */
  readonly console: { readonly sources: FleetSources; readonly retentionMs: number };
  /** Checks the credentials (throttled per client address and user name). */
  readonly gate: AuthGate;
  /** The jobs' keys: snake_case, as `jobs list --json`; `camel` until 0.3.0 (`worker --json-keys camel`). */
  readonly jsonKeys?: JsonKeyStyle | undefined;
}

const READS = new Set(["GET", "HEAD"]);

const projectParam = z.coerce.number().int();
const jobParams = z.object({ queueName: z.string(), jobId: z.string() });

function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join(".") || "query"}: ${issue.message}`);
}

/**
 * The job dashboard (bull-board, at `/admin`) and the JSON admin API (`/admin/api/...`), behind
 * HTTP Basic (or a user's bearer token). Viewers read; admins may also retry, promote and clean
 * finished jobs, as the route table (admin-route-rules.ts) says; everything else is refused.
 * State changes are refused when they come from another site's page.
 */
/** What bull-board's name formatter is given of a job (BullMQ's `toJSON()`). */
const boardJobSchema = z.object({ name: z.string(), returnvalue: z.unknown() });

export async function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions): Promise<void> {
  // Under its own prefix, so that its hooks also run for the paths below /admin no route matches.
  await app.register(async (scope) => adminScope(scope, options), { prefix: "/admin" });
}

async function adminScope(app: FastifyInstance, options: AdminRoutesOptions): Promise<void> {
  const log = options.logger.child({ component: "admin" });
  const keyStyle = options.jsonKeys ?? "snake";
  const identities = new WeakMap<FastifyRequest, AdminIdentity>();
  /** The rule of a request that acts on a job in given states, once its check passed. */
  const stateBoundRules = new WeakMap<FastifyRequest, AdminRouteRule>();
  const inTime = <T>(work: Promise<T>): Promise<T> => withRedisDeadline(options.redisTimeoutMs, work);
  const projects = new Set(options.queues.projects);
  // The names bull-board routes by are the queues' own (hash-tagged on a cluster); each maps to
  // the first part of its jobs' refs (`67/12`, `activation/3`).
  const refPrefixOfQueue = new Map<string, string>([
    ...options.queues.projects.map((project) => [options.queues.queueFor(project).name, String(project)] as const),
    ...(options.activation ? [[options.activation.queue.queue.name, ACTIVATION_QUEUE] as const] : []),
  ]);
  const rules = adminRouteRules([...refPrefixOfQueue.keys()], { activation: options.activation !== undefined });
  const schemas = adminRouteSchemas(keyStyle);

  const refuse = (request: FastifyRequest, reply: FastifyReply, identity: AdminIdentity, status: number, error: string): FastifyReply => {
    options.gate.forbidden(request, identity.name, error);
    return reply.code(status).send({ error });
  };

  /** Why the job the rule's route names may not be acted on now, or null. A missing job is left to the route (404). */
  async function jobStateProblem(rule: AdminRouteRule, params: unknown): Promise<string | null> {
    if (rule.jobStates === undefined) return null;
    const parsed = jobParams.safeParse(params);
    const refPrefix = parsed.success ? refPrefixOfQueue.get(parsed.data.queueName) : undefined;
    if (!parsed.success || refPrefix === undefined) return "queueName: not a configured queue";
    try {
      const job = await inTime(options.admin.show(`${refPrefix}/${parsed.data.jobId}`));
      return (rule.jobStates as readonly string[]).includes(job.state)
        ? null
        : `job ${job.ref} is ${job.state}: the dashboard does this to ${rule.jobStates.join(", ")} jobs only`;
    } catch (error) {
      if (error instanceof JobNotFoundError) return null;
      throw error;
    }
  }

  app.addHook("onRequest", async (request, reply) => {
    // Replaces the server-wide headers: the dashboard's page loads its own scripts and styles.
    reply.helmet(DASHBOARD_HEADERS);
    const header = request.headers.authorization;
    const identity = await options.gate.admit(request, reply, {
      present: header !== undefined,
      user: basicUserName(header),
      verify: () => authenticateAdmin(header, options.users),
      challenge: (answer) =>
        answer
          .code(401)
          .header("www-authenticate", 'Basic realm="pim-sync admin", charset="UTF-8"')
          .send({ error: "authentication required" }),
    });
    if (identity === null) return reply;
    identities.set(request, identity);
    const decision = decideAdminRequest(rules, {
      method: request.method,
      route: request.is404 ? undefined : request.routeOptions.url,
      params: request.params,
      role: identity.role,
    });
    if (!decision.allowed) {
      if (decision.allow !== undefined) void reply.header("allow", decision.allow);
      return refuse(request, reply, identity, decision.status, decision.error);
    }
    if (decision.rule !== null) {
      const stateProblem = await jobStateProblem(decision.rule, request.params);
      if (stateProblem !== null) return refuse(request, reply, identity, 403, stateProblem);
      if (decision.rule.jobStates !== undefined) stateBoundRules.set(request, decision.rule);
    }
    if (READS.has(request.method)) return;
    const crossSite = crossSiteProblem(request);
    if (crossSite !== null) return refuse(request, reply, identity, 403, `cross-site request refused: ${crossSite}`);
    log.info(
      { user: identity.name, method: request.method, url: request.url, route: request.routeOptions.url, params: request.params },
      "admin action",
    );
  });

  // bull-board's own UI asks for the queues; a viewer gets them marked read-only, so the UI
  // shows no action buttons (and the route table refuses them anyway).
  app.addHook("onSend", async (request, _reply, payload) => {
    if (identities.get(request)?.role !== "viewer" || request.routeOptions.url !== "/admin/api/queues" || typeof payload !== "string")
      return payload;
    try {
      const body = JSON.parse(payload) as { queues?: { readOnlyMode?: boolean; allowRetries?: boolean }[] };
      if (!Array.isArray(body.queues)) return payload;
      for (const queue of body.queues) Object.assign(queue, { readOnlyMode: true, allowRetries: false, allowCompletedRetries: false });
      return JSON.stringify(body);
    } catch {
      return payload;
    }
  });

  // bull-board's page links a web-font stylesheet on a foreign host, which the CSP refuses (and
  // which would tell that host of every admin's visit): left out, the UI uses the system fonts.
  app.addHook("onSend", async (_request, reply, payload) => {
    if (typeof payload !== "string" || !String(reply.getHeader("content-type") ?? "").startsWith("text/html")) return payload;
    return payload.replace(/<link\b[^>]*\bhref="https?:\/\/[^"]*"[^>]*>\s*/gi, "");
  });

  // The job's state was checked before bull-board acted, but it can change in between (a delay
  // ends, another admin retries it): BullMQ then throws and bull-board answers 500. Answered as
  // the check would have, when the state is what made it fail.
  app.addHook("onSend", async (request, reply, payload) => {
    const rule = stateBoundRules.get(request);
    if (rule === undefined || reply.statusCode < 500) return payload;
    const stateProblem = await jobStateProblem(rule, request.params).catch(() => null);
    if (stateProblem === null) return payload;
    void reply.code(403).header("content-type", "application/json; charset=utf-8");
    return JSON.stringify({ error: stateProblem });
  });

  app.setNotFoundHandler(async (_request, reply) => reply.code(404).send({ error: "not found" }));

  // allowCompletedRetries is read by bull-board's base adapter (its BullMQAdapter's type leaves it out).
  const actions = { readOnlyMode: false, allowRetries: true, allowCompletedRetries: false };
  // bull-board shows BullMQ's states only: a sync that held deletions back is "completed" there,
  // so its name says it (`sync.run (held_back)`), and results stored camelCase by an earlier
  // version are shown snake_case like the others.
  const boardQueue = (queue: ConstructorParameters<typeof BullMQAdapter>[0], description: string): BullMQAdapter => {
    const adapter = new BullMQAdapter(queue, { ...actions, description });
    adapter.setFormatter("name", (job: unknown) => {
      const shown = boardJobSchema.safeParse(job);
      if (!shown.success) return "?";
      const outcome = listedOutcomeOf(shown.data.name, shown.data.returnvalue);
      return outcome === null ? shown.data.name : `${shown.data.name} (${outcome})`;
    });
    adapter.setFormatter("returnValue", (value: unknown) => storedResultOf(value));
    return adapter;
  };
  const board = new FastifyAdapter();
  board.setBasePath("/admin");
  createBullBoard({
    // Retrying a completed job would run it again: its button is hidden and the route refuses it.
    // bull-board has no switch for its other buttons (add, pause, empty, ...): an admin sees them, and they answer 403.
    queues: [
      ...options.queues.projects.map((project) => boardQueue(options.queues.queueFor(project), `project ${project}`)),
      ...(options.activation ? [boardQueue(options.activation.queue.queue, "Activation API")] : []),
    ],
    serverAdapter: board,
    options: { uiConfig: { boardTitle: "pim-sync jobs" } },
  });
  await app.register(async (boardScope) => {
    // bull-board's pages and API serve its UI, change with its versions and are decided by the
    // route table: left out of the API description (bull-board 9 marks them hidden itself; this
    // keeps them out whatever a later version does).
    boardScope.addHook("onRoute", (route) => {
      route.schema = { ...route.schema, ...HIDDEN_ROUTE };
    });
    await boardScope.register(board.registerPlugin());
  });

  if (options.activation) activationAdminRoutes(app, options.activation, inTime, schemas);
  reviewAdminRoutes(app, { review: options.review, projects, userOf: (request) => identities.get(request)?.name ?? "admin" }, inTime);

  consoleRoutes(
    app,
    {
      sources: options.console.sources,
      review: options.review,
      retentionMs: options.console.retentionMs,
      queueOf: (project) => options.queues.queueFor(project).name,
      keyStyle,
      identityOf: (request) => identities.get(request),
    },
    inTime,
    cancelledWithRequest(options.redisTimeoutMs),
  );

  app.get("/api/jobs", { schema: schemas.jobs }, async (request, reply) => {
    const query = listQuery.safeParse(request.query);
    if (!query.success) return reply.code(400).send({ errors: problemsOf(query.error) });
    if (query.data.project !== undefined && !projects.has(query.data.project))
      return reply.code(400).send({ errors: [`project: ${query.data.project} is not a configured project`] });
    const jobs = await inTime(options.admin.list({ ...query.data }));
    return {
      jobs: inKeyStyle(
        jobs.map((job) => ({ ...job, description: `${job.name} ${job.summary}` })),
        keyStyle,
      ),
    };
  });

  app.get<{ Params: { project: string; id: string } }>("/api/jobs/:project/:id", { schema: schemas.job }, async (request, reply) => {
    try {
      return jobDetailsInKeyStyle(await inTime(options.admin.show(`${request.params.project}/${request.params.id}`)), keyStyle);
    } catch (error) {
      if (error instanceof JobNotFoundError) return reply.code(404).send({ error: error.message });
      throw error;
    }
  });

  // State changes are POST only: other methods on their paths reach the route table, which answers 405.
  for (const path of ["/api/jobs/:project/:id/retry", "/api/jobs/retry-failed", "/api/projects/:id/sync", "/api/projects/:id/resync"]) {
    app.route({
      method: ["GET", "PUT", "DELETE", "PATCH"],
      url: path,
      schema: HIDDEN_ROUTE,
      handler: async (_request, reply) => reply.code(405).header("allow", "POST").send({ error: "use POST" }),
    });
  }

  app.post<{ Params: { project: string; id: string } }>(
    "/api/jobs/:project/:id/retry",
    { schema: schemas.retryJob },
    async (request, reply) => {
      try {
        const [result] = await inTime(options.admin.retry([`${request.params.project}/${request.params.id}`]));
        return result;
      } catch (error) {
        if (error instanceof JobNotFoundError) return reply.code(404).send({ error: error.message });
        throw error;
      }
    },
  );

  app.post("/api/jobs/retry-failed", { schema: schemas.retryFailed }, async (request, reply) => {
    const query = listQuery.pick({ project: true }).safeParse(request.query);
    if (!query.success) return reply.code(400).send({ errors: problemsOf(query.error) });
    if (query.data.project !== undefined && !projects.has(query.data.project))
      return reply.code(400).send({ errors: [`project: ${query.data.project} is not a configured project`] });
    const refs = await inTime(options.admin.failedRefs(query.data.project));
    return { results: await inTime(options.admin.retry(refs)) };
  });

  app.post<{ Params: { id: string } }>("/api/projects/:id/sync", { schema: schemas.syncProject }, async (request, reply) => {
    const project = projectParam.safeParse(request.params.id);
    if (!project.success || !projects.has(project.data))
      return reply.code(404).send({ error: `project ${request.params.id} is not configured` });
    const body = syncBody.safeParse(request.body ?? {});
    if (!body.success) return reply.code(400).send({ errors: problemsOf(body.error) });
    const job = await inTime(
      options.queues.enqueue("sync.run", {
        project: project.data,
        full: body.data.full,
        trigger: "admin",
        requested_by: identities.get(request)?.name ?? "admin",
      }),
    );
    return reply.code(202).send(enqueuedAnswer(`${job.project}/${job.jobId}`, job));
  });

  app.post<{ Params: { id: string } }>("/api/projects/:id/resync", { schema: schemas.resyncProject }, async (request, reply) => {
    const project = projectParam.safeParse(request.params.id);
    if (!project.success || !projects.has(project.data))
      return reply.code(404).send({ error: `project ${request.params.id} is not configured` });
    const body = resyncBody.safeParse(request.body ?? {});
    if (!body.success) return reply.code(400).send({ errors: problemsOf(body.error) });
    const job = await inTime(
      options.queues.enqueue("sync.events", {
        project: project.data,
        resync: {
          request: randomUUID(),
          ...(body.data.collection === undefined ? {} : { collection: body.data.collection }),
          ...(body.data.attribute === undefined ? {} : { attribute: body.data.attribute }),
          dry_run: body.data.dry_run,
          requested_by: identities.get(request)?.name ?? "admin",
        },
      }),
    );
    return reply.code(202).send({ job_id: `${job.project}/${job.jobId}`, status: job.status, dry_run: body.data.dry_run });
  });
}
