import { z } from "zod";
import type { JobState } from "../../jobs/admin/job-admin.js";
import type { AdminRole } from "./authenticate-admin.js";

export type AdminMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One (method, route) the admin surface serves, as the router matched it (fastify's
 * `request.routeOptions.url`, after percent-decoding): who may call it, with which parameters.
 */
export interface AdminRouteRule {
  readonly method: AdminMethod;
  readonly url: string;
  /** `viewer`: every user; `admin`: admins only; `nobody`: refused to everyone, for `why`. */
  readonly role: AdminRole | "nobody";
  readonly why?: string;
  /** The decoded route parameters must parse (an unparsable one is refused, naming it). */
  readonly params?: z.ZodType;
  /** The job the route names (`:queueName`, `:jobId`) must be in one of these states now. */
  readonly jobStates?: readonly JobState[];
}

const everyone = (method: AdminMethod, url: string): AdminRouteRule => ({ method, url, role: "viewer" });
const nobody = (method: AdminMethod, url: string, why: string): AdminRouteRule => ({ method, url, role: "nobody", why });

const ADD = "jobs are queued by the trigger routes, the CLI or POST /admin/api/projects/:id/sync, which check their data";
const QUEUE_SETTINGS = "the queues' settings belong to the config and the worker (it restores them)";
const PAUSE = "pausing stops a project's syncs and add-options requests; stop the worker instead";
const REMOVE = "it removes jobs that are still to run: their requests would be lost";
const EDIT = "a queued job's data and options were checked when it was queued; changing them skips that check";
const SCHEDULES = "the schedules belong to the config (`projects[].schedule`)";

/**
 * Every route the admin surface registers (bull-board 9.10's table in
 * `@bull-board/api/dist/routes.js`, and the admin API's own), decided. A route not listed here is
 * refused, whatever its method: a bull-board upgrade that adds one is refused until decided here
 * (a test lists the registered routes against this table).
 */
export function adminRouteRules(queueNames: readonly string[], options: { readonly activation?: boolean } = {}): readonly AdminRouteRule[] {
  const queueName = z.string().refine((name) => queueNames.includes(name), { message: "not a configured queue" });
  const ofQueue = z.object({ queueName });
  return [
    // bull-board's pages and their static files.
    everyone("GET", "/admin"),
    everyone("GET", "/admin/metrics-history"),
    everyone("GET", "/admin/job-schedulers"),
    everyone("GET", "/admin/queue/:queueName"),
    everyone("GET", "/admin/queue/:queueName/:jobId"),
    everyone("GET", "/admin/static/*"),
    // bull-board's reads.
    everyone("GET", "/admin/api/redis/stats"),
    everyone("GET", "/admin/api/queues"),
    everyone("GET", "/admin/api/job-schedulers"),
    everyone("GET", "/admin/api/queues/:queueName/metrics"),
    everyone("GET", "/admin/api/queues/:queueName/default-job-options"),
    everyone("GET", "/admin/api/queues/:queueName/workers"),
    everyone("GET", "/admin/api/queues/:queueName/rate-limit"),
    everyone("GET", "/admin/api/queues/:queueName/job-data-schema"),
    everyone("GET", "/admin/api/queues/:queueName/:jobId/logs"),
    everyone("GET", "/admin/api/queues/:queueName/:jobId/flow"),
    everyone("GET", "/admin/api/queues/:queueName/:jobId"),
    // bull-board's changes an admin may make: retry failed jobs, promote delayed ones, clean finished ones.
    {
      method: "PUT",
      url: "/admin/api/queues/:queueName/retry/:queueStatus",
      role: "admin",
      params: z.object({
        queueName,
        queueStatus: z.literal("failed", { message: "only failed jobs are retried from the dashboard (a completed one would run again)" }),
      }),
    },
    { method: "PUT", url: "/admin/api/queues/:queueName/:jobId/retry", role: "admin", params: ofQueue, jobStates: ["failed"] },
    { method: "PUT", url: "/admin/api/queues/:queueName/promote", role: "admin", params: ofQueue },
    // BullMQ promotes only a delayed job (it throws for any other, which bull-board answered 500).
    { method: "PUT", url: "/admin/api/queues/:queueName/:jobId/promote", role: "admin", params: ofQueue, jobStates: ["delayed"] },
    {
      method: "PUT",
      url: "/admin/api/queues/:queueName/clean/:queueStatus",
      role: "admin",
      params: z.object({
        queueName,
        queueStatus: z.enum(["completed", "failed"], { message: "only completed and failed jobs are cleaned from the dashboard" }),
      }),
    },
    // bull-board's changes nobody makes here.
    nobody("POST", "/admin/api/queues/:queueName/add", ADD),
    nobody("PUT", "/admin/api/queues/pause", PAUSE),
    nobody("PUT", "/admin/api/queues/resume", PAUSE),
    nobody("PUT", "/admin/api/queues/:queueName/pause", PAUSE),
    nobody("PUT", "/admin/api/queues/:queueName/resume", PAUSE),
    nobody("PUT", "/admin/api/queues/:queueName/concurrency", QUEUE_SETTINGS),
    nobody("PUT", "/admin/api/queues/:queueName/rate-limit", QUEUE_SETTINGS),
    nobody("PUT", "/admin/api/queues/:queueName/rate-limit/release", QUEUE_SETTINGS),
    nobody("PUT", "/admin/api/queues/:queueName/empty", REMOVE),
    nobody("PUT", "/admin/api/queues/:queueName/obliterate", REMOVE),
    nobody(
      "PUT",
      "/admin/api/queues/:queueName/:jobId/clean",
      "it removes one job whatever its state; clean completed or failed jobs as a whole",
    ),
    nobody("PUT", "/admin/api/queues/:queueName/:jobId/remove-unprocessed-children", REMOVE),
    nobody("PATCH", "/admin/api/queues/:queueName/:jobId/update-data", EDIT),
    nobody("PATCH", "/admin/api/queues/:queueName/:jobId/delay", EDIT),
    nobody("PATCH", "/admin/api/queues/:queueName/:jobId/priority", EDIT),
    nobody("PUT", "/admin/api/queues/:queueName/job-schedulers/:schedulerId/remove", SCHEDULES),
    nobody("PATCH", "/admin/api/queues/:queueName/job-schedulers/:schedulerId", SCHEDULES),
    nobody(
      "PUT",
      "/admin/api/queues/:queueName/job-schedulers/:schedulerId/run",
      `${SCHEDULES}; POST /admin/api/projects/:id/sync runs a sync now`,
    ),
    // The admin API.
    everyone("GET", "/admin/api/jobs"),
    everyone("GET", "/admin/api/jobs/:project/:id"),
    { method: "POST", url: "/admin/api/jobs/:project/:id/retry", role: "admin" },
    { method: "POST", url: "/admin/api/jobs/retry-failed", role: "admin" },
    { method: "POST", url: "/admin/api/projects/:id/sync", role: "admin" },
    { method: "POST", url: "/admin/api/projects/:id/resync", role: "admin" },
    // The change history and the held deletions: everyone reads, admins approve or dismiss.
    everyone("GET", "/admin/api/projects/:id/history"),
    everyone("GET", "/admin/api/projects/:id/held"),
    { method: "POST", url: "/admin/api/projects/:id/held/:heldId/approve", role: "admin" },
    { method: "POST", url: "/admin/api/projects/:id/held/:heldId/dismiss", role: "admin" },
    // The operator console: its pages, their assets, and the JSON behind them (changes go through the POST routes above).
    everyone("GET", "/admin/console"),
    everyone("GET", "/admin/console/projects/:id/history"),
    everyone("GET", "/admin/console/console.js"),
    everyone("GET", "/admin/console/console.css"),
    everyone("GET", "/admin/api/overview"),
    everyone("GET", "/admin/api/projects/:id/history/daily"),
    // Set-aside Activation orders (registered only when `activation` is configured).
    ...(options.activation === true
      ? [
          everyone("GET", "/admin/api/activation/refused"),
          { method: "POST", url: "/admin/api/activation/refused/:connection/resend", role: "admin" } satisfies AdminRouteRule,
        ]
      : []),
  ];
}
