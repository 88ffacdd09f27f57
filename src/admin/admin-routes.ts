import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { createBullBoard } from "@bull-board/api";
import { FastifyAdapter } from "@bull-board/fastify";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { z } from "zod";
import { JOB_STATES, JobNotFoundError, type JobAdmin } from "../jobs/job-admin.js";
import type { JobQueues } from "../jobs/job-queues.js";
import { withRedisDeadline } from "../server/redis-deadline.js";
import type { AdminUser } from "../settings/settings-schema.js";
import { authenticateAdmin, type AdminIdentity } from "./authenticate-admin.js";
import { crossSiteProblem } from "./cross-site-problem.js";

export interface AdminRoutesOptions {
  readonly users: readonly AdminUser[];
  readonly admin: JobAdmin;
  readonly queues: JobQueues;
  readonly logger: Logger;
  readonly redisTimeoutMs: number;
}

/** Which of bull-board's state-changing calls an admin may make: retry, promote and clean. */
const BOARD_ADMIN_ACTIONS = /^\/admin\/api\/queues\/[^/]+\/(?:[^/]+\/)?(?:retry|promote|clean)(?:\/[^/]+)?$/;
const SAFE_METHODS = new Set(["GET", "HEAD"]);

const listQuery = z.strictObject({
  state: z.enum(JOB_STATES).optional(),
  project: z.coerce.number().int().optional(),
});
const projectParam = z.coerce.number().int();
const syncBody = z.strictObject({ full: z.boolean().default(false) });

function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join(".") || "query"}: ${issue.message}`);
}

/**
 * The job dashboard (bull-board, at `/admin`) and the JSON admin API (`/admin/api/...`), behind
 * HTTP Basic (or a user's bearer token). Viewers read; admins may also retry, promote and clean.
 * State changes are POST only and refused when they come from another site's page.
 */
export async function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions): Promise<void> {
  const log = options.logger.child({ component: "admin" });
  const identities = new WeakMap<FastifyRequest, AdminIdentity>();
  const inTime = <T>(work: Promise<T>): Promise<T> => withRedisDeadline(options.redisTimeoutMs, work);
  const projects = new Set(options.queues.projects);

  app.addHook("onRequest", async (request, reply) => {
    const identity = authenticateAdmin(request.headers.authorization, options.users);
    if (!identity) {
      if (request.headers.authorization !== undefined) log.warn({ url: request.url, ip: request.ip }, "admin login failed");
      return reply.code(401).header("www-authenticate", 'Basic realm="pim-sync admin", charset="UTF-8"').send({ error: "authentication required" });
    }
    identities.set(request, identity);
    if (SAFE_METHODS.has(request.method)) return;
    const path = request.url.split("?")[0] ?? "";
    const boardCall = path.startsWith("/admin/api/queues") || path.startsWith("/admin/api/redis") || path.startsWith("/admin/api/job-schedulers") || path.startsWith("/admin/api/metrics");
    if (request.method !== "POST" && !(boardCall && request.method === "PUT")) return reply.code(405).header("allow", "GET, POST").send({ error: "state changes use POST" });
    if (identity.role !== "admin") return reply.code(403).send({ error: `user '${identity.name}' is a viewer: read-only` });
    if (boardCall && !BOARD_ADMIN_ACTIONS.test(path)) return reply.code(403).send({ error: "the dashboard allows retry, promote and clean only" });
    const crossSite = crossSiteProblem(request);
    if (crossSite !== null) return reply.code(403).send({ error: `cross-site request refused: ${crossSite}` });
    log.info({ user: identity.name, method: request.method, url: request.url }, "admin action");
  });

  // bull-board's own UI asks for the queues; a viewer gets them marked read-only, so the UI
  // shows no retry, promote or clean buttons (and the hook above refuses them anyway).
  app.addHook("onSend", async (request, _reply, payload) => {
    if (identities.get(request)?.role !== "viewer" || !request.url.startsWith("/admin/api/queues") || typeof payload !== "string") return payload;
    try {
      const body = JSON.parse(payload) as { queues?: { readOnlyMode?: boolean; allowRetries?: boolean }[] };
      if (!Array.isArray(body.queues)) return payload;
      for (const queue of body.queues) Object.assign(queue, { readOnlyMode: true, allowRetries: false });
      return JSON.stringify(body);
    } catch {
      return payload;
    }
  });

  const board = new FastifyAdapter();
  board.setBasePath("/admin");
  createBullBoard({
    queues: options.queues.projects.map((project) => new BullMQAdapter(options.queues.queueFor(project), { readOnlyMode: false, allowRetries: true, description: `project ${project}` })),
    serverAdapter: board,
    options: { uiConfig: { boardTitle: "pim-sync jobs" } },
  });
  await app.register(board.registerPlugin(), { prefix: "/admin" });

  app.get("/admin/api/jobs", async (request, reply) => {
    const query = listQuery.safeParse(request.query);
    if (!query.success) return reply.code(400).send({ errors: problemsOf(query.error) });
    if (query.data.project !== undefined && !projects.has(query.data.project)) return reply.code(400).send({ errors: [`project: ${query.data.project} is not a configured project`] });
    const jobs = await inTime(options.admin.list({ ...query.data }));
    return { jobs: jobs.map((job) => ({ ...job, description: `${job.name} ${job.summary}` })) };
  });

  app.get<{ Params: { project: string; id: string } }>("/admin/api/jobs/:project/:id", async (request, reply) => {
    try {
      return await inTime(options.admin.show(`${request.params.project}/${request.params.id}`));
    } catch (error) {
      if (error instanceof JobNotFoundError) return reply.code(404).send({ error: error.message });
      throw error;
    }
  });

  // State changes are POST only: any other method on their paths is answered 405.
  for (const path of ["/admin/api/jobs/:project/:id/retry", "/admin/api/jobs/retry-failed", "/admin/api/projects/:id/sync"]) {
    app.route({ method: ["GET", "PUT", "DELETE", "PATCH"], url: path, handler: async (_request, reply) => reply.code(405).header("allow", "POST").send({ error: "use POST" }) });
  }

  app.post<{ Params: { project: string; id: string } }>("/admin/api/jobs/:project/:id/retry", async (request, reply) => {
    try {
      const [result] = await inTime(options.admin.retry([`${request.params.project}/${request.params.id}`]));
      return result;
    } catch (error) {
      if (error instanceof JobNotFoundError) return reply.code(404).send({ error: error.message });
      throw error;
    }
  });

  app.post("/admin/api/jobs/retry-failed", async (request, reply) => {
    const query = listQuery.pick({ project: true }).safeParse(request.query);
    if (!query.success) return reply.code(400).send({ errors: problemsOf(query.error) });
    if (query.data.project !== undefined && !projects.has(query.data.project)) return reply.code(400).send({ errors: [`project: ${query.data.project} is not a configured project`] });
    const refs = await inTime(options.admin.failedRefs(query.data.project));
    return { results: await inTime(options.admin.retry(refs)) };
  });

  app.post<{ Params: { id: string } }>("/admin/api/projects/:id/sync", async (request, reply) => {
    const project = projectParam.safeParse(request.params.id);
    if (!project.success || !projects.has(project.data)) return reply.code(404).send({ error: `project ${request.params.id} is not configured` });
    const body = syncBody.safeParse(request.body ?? {});
    if (!body.success) return reply.code(400).send({ errors: problemsOf(body.error) });
    const job = await inTime(options.queues.enqueueSync({ project: project.data, full: body.data.full, trigger: "api" }));
    return reply.code(202).send({ job_id: `${job.project}/${job.jobId}`, status: job.status });
  });
}
