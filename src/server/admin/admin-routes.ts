import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import type { AuthGate } from "../auth/auth-gate.js";
import type { JobAdmin } from "../../jobs/admin/job-admin.js";
import type { JobQueues } from "../../jobs/queues/job-queues.js";
import { cancelledWithRequest } from "../http/cancelled-with-request.js";
import { withRedisDeadline } from "../http/redis-deadline.js";
import type { AdminUser } from "../../settings/settings-schema.js";
import { activationAdminRoutes, type ActivationAdmin } from "./activation-admin-routes.js";
import type { JsonKeyStyle } from "../../core/json/json-key-style.js";
import { adminRouteSchemas } from "./admin-route-schemas.js";
import { reviewAdminRoutes, type ReviewAdmin } from "./review-admin-routes.js";
import { consoleRoutes } from "./console-routes.js";
import type { FleetSources } from "./fleet-overview.js";
import { guardAdminRequests } from "./guard-admin-requests.js";
import { jobDashboard } from "./job-dashboard.js";
import { jobAdminRoutes } from "./job-admin-routes.js";

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

/**
 * The job dashboard (bull-board, at `/admin`) and the JSON admin API (`/admin/api/...`), behind
 * HTTP Basic (or a user's bearer token). Viewers read; admins may also retry, promote and clean
 * finished jobs, as the route table (admin-route-rules.ts) says; everything else is refused.
 * State changes are refused when they come from another site's page.
 */
export async function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions): Promise<void> {
  // Under its own prefix, so that its hooks also run for the paths below /admin no route matches.
  await app.register(async (scope) => adminScope(scope, options), { prefix: "/admin" });
}

async function adminScope(app: FastifyInstance, options: AdminRoutesOptions): Promise<void> {
  const keyStyle = options.jsonKeys ?? "snake";
  const inTime = <T>(work: Promise<T>): Promise<T> => withRedisDeadline(options.redisTimeoutMs, work);
  const schemas = adminRouteSchemas(keyStyle);
  const identityOf = guardAdminRequests(app, {
    users: options.users,
    gate: options.gate,
    admin: options.admin,
    queues: options.queues,
    activationQueueName: options.activation?.queue.queue.name,
    logger: options.logger.child({ component: "admin" }),
    inTime,
  });
  const userOf = (request: FastifyRequest): string => identityOf(request)?.name ?? "admin";

  app.setNotFoundHandler(async (_request, reply) => reply.code(404).send({ error: "not found" }));

  await jobDashboard(app, { queues: options.queues, activationQueue: options.activation?.queue.queue, identityOf });

  if (options.activation) activationAdminRoutes(app, options.activation, inTime, schemas);
  reviewAdminRoutes(app, { review: options.review, projects: new Set(options.queues.projects), userOf }, inTime);

  consoleRoutes(
    app,
    {
      sources: options.console.sources,
      review: options.review,
      retentionMs: options.console.retentionMs,
      queueOf: (project) => options.queues.queueFor(project).name,
      keyStyle,
      identityOf,
    },
    inTime,
    cancelledWithRequest(options.redisTimeoutMs),
  );

  jobAdminRoutes(app, { admin: options.admin, queues: options.queues, keyStyle, userOf }, inTime, schemas);
}
