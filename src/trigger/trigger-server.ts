import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { labelLocaleProblems } from "../add-options/label-locale-problems.js";
import { IdempotencyKeyConflict } from "../jobs/idempotency-key-conflict.js";
import { JobDataError, parseJobData, type JobData } from "../jobs/job-catalog.js";
import type { JobQueues } from "../jobs/job-queues.js";
import type { ProjectSettings } from "../settings/settings-schema.js";
import { createActivationRoutes, isActivationRoute, type ActivationTrigger } from "./activation-routes.js";
import { bearerTokenMatches } from "./bearer-token-matches.js";
import { BodyError, readJsonBody } from "./read-json-body.js";

const MAX_BODY_BYTES = 1_000_000;

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

export interface TriggerServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The HTTP way in for PIM-side triggers: `POST /v1/add-options` (and `POST /v1/sync`), bearer
 * token from the config. Everything is checked before the job is queued: a 202 means the job
 * is stored, a 400 says every reason it was not.
 */
export async function startTriggerServer(args: {
  readonly host: string;
  readonly port: number;
  readonly token: string;
  readonly queues: JobQueues;
  readonly projects: readonly ProjectSettings[];
  readonly logger: Logger;
  /** The Activation routes, when the config has an `activation` section. */
  readonly activation?: ActivationTrigger;
  /** The locales labels may use in a project (service spelling); `fresh` re-reads the PIM. */
  readonly projectLocales?: (project: number, fresh: boolean) => Promise<readonly string[]>;
}): Promise<TriggerServer> {
  const log = args.logger.child({ component: "trigger" });
  const activationRoutes = args.activation ? createActivationRoutes(args.activation) : null;
  const projectById = new Map(args.projects.map((project) => [project.id, project]));

  function send(response: ServerResponse, status: number, body: unknown): void {
    // An answer given before the request's body was read (401, 413, 415) leaves the rest of that
    // body on the connection, where it would be taken for the next request: close it instead.
    const unread = !response.req.complete;
    response.writeHead(status, { "content-type": "application/json", ...(unread ? { connection: "close" } : {}) });
    response.end(JSON.stringify(body));
  }

  /**
   * Label locales outside the project's: refused here rather than queued to fail. The cached PIM
   * structure is re-read before refusing; when the PIM cannot be read now, the job checks later.
   */
  async function labelLocaleCheck(projectId: number, request: JobData<"options.add">): Promise<string[]> {
    const localesOf = args.projectLocales;
    if (!localesOf) return [];
    try {
      const cached = labelLocaleProblems(request, await localesOf(projectId, false));
      return cached.length === 0 ? [] : labelLocaleProblems(request, await localesOf(projectId, true));
    } catch (error) {
      log.warn({ project: projectId, err: { message: (error as Error).message } }, "could not read the project's locales; the job will check its labels");
      return [];
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://trigger").pathname;
    if (path === "/health") return send(response, 200, { status: "ok" });
    const route = path === "/v1/add-options" ? "add-options" : path === "/v1/sync" ? "sync" : activationRoutes && isActivationRoute(path) ? path : null;
    if (route === null) return send(response, 404, { error: "not found" });
    if (request.method !== "POST") {
      response.setHeader("allow", "POST");
      return send(response, 405, { error: "use POST" });
    }
    if (!bearerTokenMatches(request.headers.authorization, args.token)) {
      response.setHeader("www-authenticate", "Bearer");
      return send(response, 401, { error: "a valid bearer token is required" });
    }
    const raw = await readJsonBody(request, MAX_BODY_BYTES);
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return send(response, 400, { errors: ["body must be a JSON object"] });
    const body = raw as Readonly<Record<string, unknown>>;
    if (activationRoutes && isActivationRoute(route)) {
      const answer = await activationRoutes.handle(route, body, request);
      return send(response, answer.status, answer.body);
    }
    const projectId = body.project;
    const project = typeof projectId === "number" ? projectById.get(projectId) : undefined;
    if (!project) return send(response, 400, { errors: [projectProblem(projectId)] });

    if (route === "sync") {
      const job = await args.queues.enqueueSync({ ...body, trigger: "api" });
      return send(response, 202, { job_id: `${job.project}/${job.jobId}`, status: job.status });
    }
    // Every reason at once: the request's shape and the project's allowlist.
    const { request: parsed, problems } = parseAddOptions(body);
    const attribute = body.attribute;
    if (typeof attribute === "string" && !project.allowed_options_for_pim_attribute_addition.includes(attribute)) {
      problems.push(`attribute: '${attribute}' is not in allowed_options_for_pim_attribute_addition of project ${project.id}`);
    }
    if (parsed && args.projectLocales) problems.push(...(await labelLocaleCheck(project.id, parsed)));
    if (problems.length > 0) return send(response, 400, { errors: problems });
    const idempotencyKey = request.headers["idempotency-key"];
    const key = typeof idempotencyKey === "string" && idempotencyKey.trim() !== "" ? `${project.id}:${idempotencyKey.trim()}` : undefined;
    const job = await args.queues.enqueueAddOptions(body, { idempotencyKey: key });
    log.info({ project: job.project, job: job.jobId, status: job.status }, "add-options request queued");
    return send(response, 202, { job_id: `${job.project}/${job.jobId}`, status: job.status });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (error instanceof BodyError) return send(response, error.status, { errors: [error.message] });
      if (error instanceof JobDataError) return send(response, 400, { errors: error.problems });
      // A reused key with another body: the body would be silently dropped as a duplicate.
      if (error instanceof IdempotencyKeyConflict) return send(response, 422, { errors: [`Idempotency-Key: ${error.message}`] });
      log.error({ err: { message: (error as Error).message } }, "trigger request failed");
      send(response, 503, { error: "could not queue the request; try again" });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(args.port, args.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address.includes(":") ? `[${address.address}]` : address.address}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
