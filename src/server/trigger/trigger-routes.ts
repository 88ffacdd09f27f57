import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from "fastify";
import type { Logger } from "pino";
import type { AuthGate } from "../auth/auth-gate.js";
import { bearerTokenMatches } from "../auth/bearer-token-matches.js";
import { labelLocaleProblems } from "../../features/add-options/label-locale-problems.js";
import { JobDataError, parseJobData, type JobData } from "../../jobs/catalog/job-catalog.js";
import type { EnqueuedJob, JobQueues } from "../../jobs/queues/job-queues.js";
import { JobNotFoundError, QueueNotConfiguredError, jobResultInKeyStyle, type JobDetails } from "../../jobs/admin/job-admin.js";
import type { JobFinalStatus } from "../../jobs/admin/job-final-status-store.js";
import { BodyError } from "../http/body-error.js";
import { withRedisDeadline } from "../http/redis-deadline.js";
import type { ProjectSettings } from "../../settings/settings-schema.js";
import type { JsonKeyStyle } from "../../core/json/json-key-style.js";
import { HIDDEN_ROUTE } from "../openapi/route-schema.js";
import { createActivationRoutes, type ActivationTrigger } from "./activation-routes.js";
import { jobStatusRouteSchema, type jobStatusAnswer } from "./trigger-route-schemas.js";
import { ACTIVATION_ROUTE_JOBS, TRIGGER_ROUTE_JOBS, type ActivationRoutePath } from "./trigger-route-jobs.js";
import type { z } from "zod";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route needs the trigger's bearer token (checked by triggerRoutes' onRequest hook). */
    bearer?: boolean;
  }
}
import { tracingHooks } from "../../infra/telemetry/tracing-hooks.js";
import { SPAN_ATTRIBUTES } from "../../infra/telemetry/span-attribute-names.js";
import { enqueuedAnswer } from "../../jobs/queues/enqueued-answer.js";

export interface TriggerRoutesOptions {
  readonly token: string;
  /** Checks the token (throttled per client address). */
  readonly gate: AuthGate;
  readonly queues: JobQueues;
  readonly projects: readonly ProjectSettings[];
  readonly logger: Logger;
  /** A route answers 503 when Redis has not taken its job within this. */
  readonly redisTimeoutMs: number;
  /** The Activation routes, when the config has an `activation` section. */
  readonly activation?: ActivationTrigger | undefined;
  /**
   * The locales labels may use in a project (service spelling), from the worker's cached PIM
   * structure; `recheck` re-reads it unless it was read within `add_options.locale_recheck_ms`.
   */
  readonly projectLocales?: ((project: number, recheck: boolean) => Promise<readonly string[]>) | undefined;
  /** A job by `<project>/<id>` (JobNotFoundError when there is none), for `GET /v1/jobs/...`. */
  readonly jobDetails?: ((ref: string) => Promise<JobDetails>) | undefined;
  /** How a job that BullMQ has removed ended (null when not recorded), for `GET /v1/jobs/...`. */
  readonly jobFinalStatus?: ((project: number, id: string) => Promise<JobFinalStatus | null>) | undefined;
  /** The result's keys: snake_case like the rest of the answer; `camel` (the earlier, camelCase result) until 0.3.0. */
  readonly jsonKeys?: JsonKeyStyle | undefined;
}

/** Routes that need the bearer token carry this in their config; 405 answers do not. */
const BEARER = { bearer: true } as const;

/** On the request's handler span, when tracing is on: which job carries the request out. */
function annotateEnqueued(job: EnqueuedJob): void {
  tracingHooks().annotate({
    [SPAN_ATTRIBUTES.project]: job.project,
    [SPAN_ATTRIBUTES.jobId]: job.jobId,
    [SPAN_ATTRIBUTES.enqueueStatus]: job.status,
  });
}

function parseAddOptions(body: unknown): { request?: JobData<"options.add">; problems: string[] } {
  try {
    return { request: parseJobData("options.add", body), problems: [] };
  } catch (error) {
    if (error instanceof JobDataError) return { problems: [...error.problems] };
    throw error;
  }
}

/** Why `project` names no configured project: a wrong type is told apart from an unknown id. */
function projectProblem(value: unknown): string {
  if (typeof value === "number") return `project: ${value} is not a configured project`;
  if (value === undefined) return "project: required (a configured project id)";
  return `project: must be a number (a configured project id), got ${typeof value} ${JSON.stringify(value)}`;
}

/** The parsed JSON body as an object, or the BodyError to answer. */
function objectBody(request: FastifyRequest): Readonly<Record<string, unknown>> {
  // No body and no Content-Type: fastify skips parsing; the old endpoint answered 415 here.
  if (request.body === undefined) throw new BodyError(415, "Content-Type must be application/json");
  const raw: unknown = request.body;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new BodyError(400, "body must be a JSON object");
  return raw as Readonly<Record<string, unknown>>;
}

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers["idempotency-key"];
  return typeof header === "string" && header.trim() !== "" ? header.trim() : undefined;
}

/**
 * The way in for PIM-side triggers: `POST /v1/add-options`, `POST /v1/sync` and the Activation
 * routes, bearer token from the config. Everything is checked before the job is queued: a 202
 * means the job is stored, a 400 says every reason it was not. The token is checked before the
 * body is read.
 */
export async function triggerRoutes(app: FastifyInstance, options: TriggerRoutesOptions): Promise<void> {
  const log = options.logger.child({ component: "trigger" });
  const activationRoutes = options.activation ? createActivationRoutes(options.activation) : null;
  const projectById = new Map(options.projects.map((project) => [project.id, project]));
  const inTime = <T>(work: Promise<T>): Promise<T> => withRedisDeadline(options.redisTimeoutMs, work);

  app.addHook("onRequest", async (request, reply) => {
    if (request.routeOptions.config.bearer !== true) return;
    const header = request.headers.authorization;
    const admitted = await options.gate.admit(request, reply, {
      present: header !== undefined,
      verify: () => (bearerTokenMatches(header, options.token) ? true : null),
      challenge: (answer) => answer.code(401).header("www-authenticate", "Bearer").send({ error: "a valid bearer token is required" }),
    });
    if (admitted === null) return reply;
  });

  /**
   * Label locales outside the project's: refused here rather than queued to fail. Before refusing,
   * the PIM structure is re-read unless it was read within `add_options.locale_recheck_ms` (one
   * read shared by concurrent requests): a burst of bad requests costs at most one read per
   * project per interval, and a locale just enabled in the PIM is accepted within it. When the
   * PIM cannot be read now, the job checks later.
   */
  async function labelLocaleCheck(projectId: number, request: JobData<"options.add">): Promise<string[]> {
    const localesOf = options.projectLocales;
    if (!localesOf) return [];
    try {
      const cached = labelLocaleProblems(request, await localesOf(projectId, false));
      return cached.length === 0 ? [] : labelLocaleProblems(request, await localesOf(projectId, true));
    } catch (error) {
      log.warn({ project: projectId, err: error }, "could not read the project's locales; the job will check its labels");
      return [];
    }
  }

  const postOnly = (
    path: string,
    schema: FastifySchema,
    handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ): void => {
    app.post(path, { config: BEARER, schema }, handler);
    app.route({
      method: ["GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"],
      url: path,
      schema: HIDDEN_ROUTE,
      handler: async (_request, reply) => reply.code(405).header("allow", "POST").send({ error: "use POST" }),
    });
  };

  const sync = TRIGGER_ROUTE_JOBS["/v1/sync"];
  postOnly("/v1/sync", sync.schema, async (request, reply) => {
    const body = objectBody(request);
    const projectId = body.project;
    if (typeof projectId !== "number" || !projectById.has(projectId)) return reply.code(400).send({ errors: [projectProblem(projectId)] });
    // Parsed here, at the boundary (a JobDataError is answered 400), so the one enqueue is given its typed data.
    const job = await inTime(options.queues.enqueue(sync.job, parseJobData(sync.job, { ...body, trigger: "api" })));
    annotateEnqueued(job);
    return reply.code(202).send(enqueuedAnswer(`${job.project}/${job.jobId}`, job));
  });

  const addOptions = TRIGGER_ROUTE_JOBS["/v1/add-options"];
  postOnly("/v1/add-options", addOptions.schema, async (request, reply) => {
    const body = objectBody(request);
    const projectId = body.project;
    const project = typeof projectId === "number" ? projectById.get(projectId) : undefined;
    if (!project) return reply.code(400).send({ errors: [projectProblem(projectId)] });
    // Every reason at once: the request's shape and the project's allowlist.
    const { request: parsed, problems } = parseAddOptions(body);
    const attribute = body.attribute;
    if (typeof attribute === "string" && !project.allowed_options_for_pim_attribute_addition.includes(attribute)) {
      problems.push(`attribute: '${attribute}' is not in allowed_options_for_pim_attribute_addition of project ${project.id}`);
    }
    if (parsed) problems.push(...(await labelLocaleCheck(project.id, parsed)));
    if (problems.length > 0 || parsed === undefined) return reply.code(400).send({ errors: problems });
    const key = idempotencyKeyOf(request);
    const job = await inTime(
      options.queues.enqueue(addOptions.job, parsed, { idempotencyKey: key === undefined ? undefined : `${project.id}:${key}` }),
    );
    annotateEnqueued(job);
    log.info({ project: job.project, job: job.jobId, status: job.status }, "add-options request queued");
    return reply.code(202).send(enqueuedAnswer(`${job.project}/${job.jobId}`, job));
  });

  const jobDetails = options.jobDetails;
  if (jobDetails) {
    // What a PIM-side caller needs to follow the job its 202 named: no stack traces, no logs.
    app.get<{ Params: { project: string; id: string } }>(
      "/v1/jobs/:project/:id",
      { config: BEARER, schema: jobStatusRouteSchema },
      async (request, reply) => {
        const ref = `${request.params.project}/${request.params.id}`;
        let job: JobDetails | JobFinalStatus;
        try {
          job = await inTime(jobDetails(ref));
        } catch (error) {
          if (!(error instanceof JobNotFoundError)) throw error;
          // Removed by its retention: its recorded end answers for the whole idempotency window.
          const ended =
            error instanceof QueueNotConfiguredError || !options.jobFinalStatus
              ? null
              : await inTime(options.jobFinalStatus(Number(request.params.project), request.params.id));
          if (ended === null) return reply.code(404).send({ error: `no job ${ref}` });
          job = ended;
        }
        if ("project" in job && job.project === null) return reply.code(404).send({ error: `no job ${ref}` });
        return {
          job_id: job.ref,
          name: job.name,
          state: job.state,
          attempts_made: job.attemptsMade,
          created_at: job.createdAt,
          finished_at: job.finishedAt,
          result: job.state === "completed" ? jobResultInKeyStyle(job.result, options.jsonKeys ?? "snake") : null,
          failed_reason: job.failedReason,
          retrying_after: "pendingRetryReason" in job ? job.pendingRetryReason : null,
          runs_at: "runsAt" in job ? job.runsAt : null,
        } satisfies z.input<typeof jobStatusAnswer>;
      },
    );
  }

  if (activationRoutes) {
    for (const path of Object.keys(ACTIVATION_ROUTE_JOBS) as ActivationRoutePath[]) {
      postOnly(path, ACTIVATION_ROUTE_JOBS[path].schema, async (request, reply) => {
        const answer = await activationRoutes.handle(path, objectBody(request), idempotencyKeyOf(request), inTime);
        return reply.code(answer.status).send(answer.body);
      });
    }
  }
}
