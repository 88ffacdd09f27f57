import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { z } from "zod";
import type { AuthGate } from "../auth/auth-gate.js";
import { JobNotFoundError, type JobAdmin } from "../../jobs/admin/job-admin.js";
import type { JobQueues } from "../../jobs/queues/job-queues.js";
import { ACTIVATION_QUEUE } from "../../infra/redis/queue-names.js";
import { DASHBOARD_HEADERS } from "../http/security-headers.js";
import type { AdminUser } from "../../settings/settings-schema.js";
import { adminRouteRules, type AdminRouteRule } from "./admin-route-rules.js";
import { authenticateAdmin, basicUserName, type AdminIdentity } from "./authenticate-admin.js";
import { crossSiteProblem } from "./cross-site-problem.js";
import { decideAdminRequest } from "./decide-admin-request.js";

const READS = new Set(["GET", "HEAD"]);
const jobParams = z.object({ queueName: z.string(), jobId: z.string() });

/** Who made an admin request, once the guard admitted it. */
export type AdminIdentityOf = (request: FastifyRequest) => AdminIdentity | undefined;

/**
 * The admin scope's guard, in its hooks: HTTP Basic (or a user's bearer token), then the route
 * table's decision for the user's role, the state of the job a dashboard action names, and the
 * cross-site check of state changes, which are logged. Answers who made an admitted request.
 */
export function guardAdminRequests(
  app: FastifyInstance,
  options: {
    readonly users: readonly AdminUser[];
    readonly gate: AuthGate;
    readonly admin: JobAdmin;
    readonly queues: JobQueues;
    /** The Activation queue's name on the dashboard, when `activation` is configured. */
    readonly activationQueueName: string | undefined;
    readonly logger: Logger;
    readonly inTime: <T>(work: Promise<T>) => Promise<T>;
  },
): AdminIdentityOf {
  const { inTime, logger: log } = options;
  const identities = new WeakMap<FastifyRequest, AdminIdentity>();
  /** The rule of a request that acts on a job in given states, once its check passed. */
  const stateBoundRules = new WeakMap<FastifyRequest, AdminRouteRule>();
  // The names bull-board routes by are the queues' own (hash-tagged on a cluster); each maps to
  // the first part of its jobs' refs (`67/12`, `activation/3`).
  const refPrefixOfQueue = new Map<string, string>([
    ...options.queues.projects.map((project) => [options.queues.queueFor(project).name, String(project)] as const),
    ...(options.activationQueueName === undefined ? [] : [[options.activationQueueName, ACTIVATION_QUEUE] as const]),
  ]);
  const rules = adminRouteRules([...refPrefixOfQueue.keys()], { activation: options.activationQueueName !== undefined });

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

  return (request) => identities.get(request);
}
