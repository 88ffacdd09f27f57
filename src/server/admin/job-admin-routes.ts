import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { JobNotFoundError, jobDetailsInKeyStyle, type JobAdmin } from "../../jobs/admin/job-admin.js";
import type { JobQueues } from "../../jobs/queues/job-queues.js";
import { enqueuedAnswer } from "../../jobs/queues/enqueued-answer.js";
import { inKeyStyle, type JsonKeyStyle } from "../../core/json/json-key-style.js";
import { listQuery, resyncBody, syncBody, type AdminRouteSchemas } from "./admin-route-schemas.js";
import { answerPostOnly } from "./answer-post-only.js";

const projectParam = z.coerce.number().int();

function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join(".") || "query"}: ${issue.message}`);
}

/**
 * The projects' jobs in the admin API, registered inside adminRoutes' `/admin` scope (its
 * authentication and route table apply): `GET /admin/api/jobs` and `.../jobs/:project/:id` list
 * and show them, `POST .../jobs/:project/:id/retry` and `.../jobs/retry-failed` retry them,
 * `POST /admin/api/projects/:id/sync` and `.../resync` queue a project's sync or targeted resync.
 */
export function jobAdminRoutes(
  app: FastifyInstance,
  options: {
    readonly admin: JobAdmin;
    readonly queues: JobQueues;
    readonly keyStyle: JsonKeyStyle;
    readonly userOf: (request: FastifyRequest) => string;
  },
  inTime: <T>(work: Promise<T>) => Promise<T>,
  schemas: AdminRouteSchemas,
): void {
  const { admin, queues, keyStyle, userOf } = options;
  const projects = new Set(queues.projects);

  /** The configured project a `/api/projects/:id/...` request names and its body as `schema` reads it, or the answer refusing it. */
  function projectRequest<T>(
    id: string,
    body: unknown,
    schema: z.ZodType<T>,
  ): { readonly project: number; readonly body: T } | { readonly status: 400 | 404; readonly answer: object } {
    const project = projectParam.safeParse(id);
    if (!project.success || !projects.has(project.data)) return { status: 404, answer: { error: `project ${id} is not configured` } };
    const parsed = schema.safeParse(body ?? {});
    if (!parsed.success) return { status: 400, answer: { errors: problemsOf(parsed.error) } };
    return { project: project.data, body: parsed.data };
  }

  app.get("/api/jobs", { schema: schemas.jobs }, async (request, reply) => {
    const query = listQuery.safeParse(request.query);
    if (!query.success) return reply.code(400).send({ errors: problemsOf(query.error) });
    if (query.data.project !== undefined && !projects.has(query.data.project))
      return reply.code(400).send({ errors: [`project: ${query.data.project} is not a configured project`] });
    const jobs = await inTime(admin.list({ ...query.data }));
    return {
      jobs: inKeyStyle(
        jobs.map((job) => ({ ...job, description: `${job.name} ${job.summary}` })),
        keyStyle,
      ),
    };
  });

  app.get<{ Params: { project: string; id: string } }>("/api/jobs/:project/:id", { schema: schemas.job }, async (request, reply) => {
    try {
      return jobDetailsInKeyStyle(await inTime(admin.show(`${request.params.project}/${request.params.id}`)), keyStyle);
    } catch (error) {
      if (error instanceof JobNotFoundError) return reply.code(404).send({ error: error.message });
      throw error;
    }
  });

  answerPostOnly(app, ["/api/jobs/:project/:id/retry", "/api/jobs/retry-failed", "/api/projects/:id/sync", "/api/projects/:id/resync"]);

  app.post<{ Params: { project: string; id: string } }>(
    "/api/jobs/:project/:id/retry",
    { schema: schemas.retryJob },
    async (request, reply) => {
      try {
        const [result] = await inTime(admin.retry([`${request.params.project}/${request.params.id}`]));
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
    const refs = await inTime(admin.failedRefs(query.data.project));
    return { results: await inTime(admin.retry(refs)) };
  });

  app.post<{ Params: { id: string } }>("/api/projects/:id/sync", { schema: schemas.syncProject }, async (request, reply) => {
    const admitted = projectRequest(request.params.id, request.body, syncBody);
    if ("status" in admitted) return reply.code(admitted.status).send(admitted.answer);
    const job = await inTime(
      queues.enqueue("sync.run", {
        project: admitted.project,
        full: admitted.body.full,
        trigger: "admin",
        requested_by: userOf(request),
      }),
    );
    return reply.code(202).send(enqueuedAnswer(`${job.project}/${job.jobId}`, job));
  });

  app.post<{ Params: { id: string } }>("/api/projects/:id/resync", { schema: schemas.resyncProject }, async (request, reply) => {
    const admitted = projectRequest(request.params.id, request.body, resyncBody);
    if ("status" in admitted) return reply.code(admitted.status).send(admitted.answer);
    const { body } = admitted;
    const job = await inTime(
      queues.enqueue("sync.events", {
        project: admitted.project,
        resync: {
          request: randomUUID(),
          ...(body.collection === undefined ? {} : { collection: body.collection }),
          ...(body.attribute === undefined ? {} : { attribute: body.attribute }),
          dry_run: body.dry_run,
          requested_by: userOf(request),
        },
      }),
    );
    return reply.code(202).send({ job_id: `${job.project}/${job.jobId}`, status: job.status, dry_run: body.dry_run });
  });
}
