import { SUBSCRIPTION_STATES } from "../../features/events/subscription-notification.js";
import { z } from "zod";
import { refusedOrderSchema } from "../../features/activation/refused-order-schema.js";
import { JOB_STATES } from "../../jobs/admin/job-admin.js";
import type { JsonKeyStyle } from "../../core/json/json-key-style.js";
import { answer, queuedAnswer, refusals } from "../openapi/answer-schemas.js";
import { routeSchema, type RouteDescription } from "../openapi/route-schema.js";
import { ADMIN_SECURITY } from "../openapi/security-schemes.js";
import { HISTORY_KINDS, HISTORY_TRIGGERS } from "../../stores/history/history-entry.js";

export const listQuery = z.strictObject({
  state: z.enum(JOB_STATES).optional(),
  project: z.coerce.number().int().optional(),
});
export const syncBody = z.strictObject({ full: z.boolean().default(false) });
export const resyncBody = z
  .strictObject({
    collection: z.string().trim().min(1).max(500).optional().describe("one collection of the configuration service, by name"),
    attribute: z.string().trim().min(1).max(500).optional().describe("one PIM attribute: every collection it derives"),
    dry_run: z.boolean().default(false).describe("plan only: the job's result lists what it would write; nothing is written"),
  })
  .refine((body) => body.collection === undefined || body.attribute === undefined, {
    message: "name a collection or an attribute, not both",
    path: ["collection"],
  });
export const refusedQuery = z.strictObject({ connection: z.string().min(1).optional() });
export const resendBody = z.strictObject({ order_ids: z.array(z.string().min(1)).min(1).optional() });

const jobParams = z.object({ project: z.string().describe("a project id, or `activation`"), id: z.string() });

/** A job as the admin API lists it (job-admin.ts' JobSummary, snake_case). */
const jobSummary = z.object({
  ref: z.string().describe("`<project>/<id>`, or `activation/<id>`"),
  project: z.int().nullable().describe("null for Activation jobs"),
  id: z.string(),
  name: z.string(),
  state: z.string().describe(`BullMQ's state of the job: ${JOB_STATES.join(", ")}`),
  attempts_made: z.int().nonnegative(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  failed_reason: z.string().nullable().describe("set only while the job is failed"),
  summary: z.string().describe("what the job does, from its data"),
  outcome: z
    .string()
    .nullable()
    .describe(
      "of a completed job, what its result says that is not a plain success: `held_back` for a sync whose deletions were held back; else null",
    ),
  runs_at: z
    .string()
    .nullable()
    .describe("of a delayed job, when it runs (a retry's wait: an upstream's Retry-After or a backoff; a PIM event window); else null"),
});
const jobListAnswer = z.object({ jobs: z.array(jobSummary.extend({ description: z.string().describe("name and summary") })) });
const jobDetailsAnswer = jobSummary.extend({
  data: z.unknown(),
  result: z.unknown(),
  stacktrace: z.array(z.string()).describe("the failure of the attempt that failed the job: only while failed"),
  earlier_stacktraces: z.array(z.string()),
  pending_retry_reason: z.string().nullable(),
  logs: z.array(z.string()),
  attempts_started: z.int().nonnegative(),
});
/** `worker --json-keys camel` keeps the earlier camelCase shapes of the job answers until 0.3.0: described as any object. */
const camelAnswer = z.record(z.string(), z.unknown()).describe("the earlier camelCase shape (worker --json-keys camel)");
export const retryResult = z.object({ ref: z.string(), outcome: z.enum(["retried", "skipped"]), reason: z.string().optional() });

/** Every admin route passes the same gate: credentials, the route table, the starting worker. */
const GATE_REFUSALS = refusals(401, 403, 429, 503);
const POST_REFUSALS = refusals(400, 401, 403, 413, 415, 429, 503);

const adminRoute = (route: Omit<RouteDescription, "tags" | "security">) =>
  routeSchema({ ...route, tags: ["admin"], security: ADMIN_SECURITY });

export const adminRouteSchemas = (keyStyle: JsonKeyStyle) => ({
  jobs: adminRoute({
    summary: "The newest jobs (at most 100), of every project and the Activation queue, or filtered",
    description: "Viewers and admins.",
    querystring: listQuery,
    answers: {
      200: answer("the jobs, newest first", keyStyle === "camel" ? camelAnswer : jobListAnswer),
      ...refusals(400),
      ...GATE_REFUSALS,
    },
  }),
  job: adminRoute({
    summary: "One job: its data, result, failures and logs",
    description: "Viewers and admins.",
    params: jobParams,
    answers: { 200: answer("the job", keyStyle === "camel" ? camelAnswer : jobDetailsAnswer), ...refusals(400, 404), ...GATE_REFUSALS },
  }),
  retryJob: adminRoute({
    summary: "Retry a failed job with a fresh attempt budget",
    description: "Admins. A job that is not failed, or whose data no longer parses, is skipped (the answer says why).",
    params: jobParams,
    answers: { 200: answer("what was done", retryResult), ...refusals(404), ...POST_REFUSALS },
  }),
  retryFailed: adminRoute({
    summary: "Retry every failed job (of one project)",
    description: "Admins.",
    querystring: listQuery.pick({ project: true }),
    answers: { 200: answer("what was done, per job", z.object({ results: z.array(retryResult) })), ...POST_REFUSALS },
  }),
  syncProject: adminRoute({
    summary: "Queue a sync of a project",
    description: "Admins. The body may be left out (an incremental sync).",
    params: z.object({ id: z.string().describe("a configured project id") }),
    body: syncBody,
    bodyOptional: true,
    answers: { 202: answer("the job is stored (or an equal one was)", queuedAnswer), ...refusals(404), ...POST_REFUSALS },
  }),
  resyncProject: adminRoute({
    summary: "Resync a project, one collection or one attribute (or plan it: dry_run)",
    description:
      "Admins. Queues a `sync.events` job of its own (the targeted path PIM events take: the deletion guard counted across runs, the held review, the change history under the admin's name). Neither `collection` nor `attribute`: the whole project. With `dry_run`, nothing is written: the job's result (`GET /admin/api/jobs/{project}/{id}`) lists per collection what it would write.",
    params: z.object({ id: z.string().describe("a configured project id") }),
    body: resyncBody,
    bodyOptional: true,
    answers: {
      202: answer(
        "the job is queued: poll it with GET /admin/api/jobs/{project}/{id}",
        queuedAnswer.extend({ dry_run: z.boolean().describe("whether the job only plans") }),
      ),
      ...refusals(404),
      ...POST_REFUSALS,
    },
  }),
  refusedOrders: adminRoute({
    summary: "Activation orders set aside after the sink refused them",
    description: "Viewers and admins. Served when `activation` is configured.",
    querystring: refusedQuery,
    answers: {
      200: answer("the set-aside orders", z.object({ refused: z.array(refusedOrderSchema) })),
      ...refusals(400),
      ...GATE_REFUSALS,
    },
  }),
  resendRefused: adminRoute({
    summary: "Queue the re-send of a connection's set-aside orders (those named, or all)",
    description: "Admins. The body may be left out (every set-aside order of the connection). Served when `activation` is configured.",
    params: z.object({ connection: z.string() }),
    body: resendBody,
    bodyOptional: true,
    answers: { 202: answer("the re-send job is stored", queuedAnswer), ...POST_REFUSALS },
  }),
});

const projectParams = z.object({ id: z.string().describe("a configured project id") });
const labels = z.record(z.string(), z.string()).nullable();
/** A history entry as answered (snake_case; history-entry.ts holds it camelCase). */
const historyEntryAnswer = z.object({
  collection: z.string(),
  option: z.string(),
  kind: z.enum(HISTORY_KINDS),
  labels_before: labels.describe("null where nothing was known (a first sync, an addition)"),
  labels_after: labels,
  renamed_from: z.array(z.string()).optional().describe("a rename's earlier spellings"),
  reason: z.string().describe("for a deletion: the PIM no longer has it, confirmed by the read at that time (and the approval, if held)"),
  job: z.string().describe("the job's ref (`67/12`), or the run's own id outside the worker (`cli/…`)"),
  trigger: z.enum(HISTORY_TRIGGERS),
  requested_by: z.string().optional(),
  at: z.string().describe("when the service confirmed the write (ISO 8601)"),
});
/** A held plan as answered (snake_case; held-plan.ts holds it camelCase). */
const heldPlanAnswer = z.object({
  id: z.string(),
  project: z.int(),
  collections: z.array(z.object({ collection: z.string(), options: z.array(z.string()), reason: z.string() })),
  held_at: z.string(),
  last_held_at: z.string(),
  run: z.object({ job: z.string(), trigger: z.enum(HISTORY_TRIGGERS), requested_by: z.string().optional() }),
  expires_at: z.string(),
  approved: z.object({ by: z.string(), at: z.string() }).nullable(),
  revision: z.int().describe("bumped by every change of the plan"),
});

/** The change history and the held plans (review-admin-routes.ts). */
export const reviewRouteSchemas = {
  history: adminRoute({
    summary: "A project's change history, newest first, paged",
    description: "Viewers and admins. `next_cursor` asks for the next page.",
    params: projectParams,
    querystring: z.strictObject({
      collection: z.string().optional().describe("only this collection, in any case"),
      option: z.string().optional().describe("only this option, in any case; a rename is found by its old spelling too"),
      since: z.string().optional().describe("a duration back from now (`7d`, `12h`) or an ISO time"),
      cursor: z.string().optional(),
      limit: z.string().optional().describe("entries per page, 1 to 1000 (100)"),
    }),
    answers: {
      200: answer("the entries", z.object({ entries: z.array(historyEntryAnswer), next_cursor: z.string().nullable() })),
      ...refusals(400, 404),
      ...GATE_REFUSALS,
    },
  }),
  held: adminRoute({
    summary: "A project's held deletions awaiting review (and approved ones not yet applied)",
    description: "Viewers and admins.",
    params: projectParams,
    answers: {
      200: answer("the held plans", z.object({ held: z.array(heldPlanAnswer) })),
      ...refusals(404),
      ...GATE_REFUSALS,
    },
  }),
  approveHeld: adminRoute({
    summary: "Approve a held plan: the next sync deletes exactly its options the PIM still lacks",
    description: "Admins only; a viewer is refused 403.",
    params: projectParams.extend({ heldId: z.string() }),
    answers: {
      200: answer("the approved plan", z.object({ approved: heldPlanAnswer })),
      ...refusals(404, 409),
      ...POST_REFUSALS,
    },
  }),
  dismissHeld: adminRoute({
    summary: "Dismiss a held plan: its options stay in the service, each recorded as kept in the history, and the plan goes",
    description:
      "Admins only; a viewer is refused 403. A pending or an approved plan. A later sync that still finds the options missing from the PIM decides again, through the deletion guard, and may hold them again.",
    params: projectParams.extend({ heldId: z.string() }),
    answers: {
      200: answer("the dismissed plan, as it was", z.object({ dismissed: heldPlanAnswer })),
      ...refusals(404, 409),
      ...POST_REFUSALS,
    },
  }),
};

export type AdminRouteSchemas = ReturnType<typeof adminRouteSchemas>;

const lastSyncAnswer = z.object({
  job: z.string(),
  name: z.string().describe("`sync.run` or `sync.events`"),
  finished_at: z.string(),
  outcome: z.enum(["done", "held_back", "failed"]),
  written: z.int().describe("options upserted and deleted (0 for a failed job)"),
  held: z.int().describe("options the deletion guard held back"),
  failed: z.int().describe("what the run could not do: a targeted sync's targets given up; 1 for a failed job"),
  missing: z.int().describe("collections the run found no source for in the PIM (nothing written to them)"),
  failed_reason: z.string().nullable(),
});
const projectOverviewAnswer = z.object({
  project: z.int(),
  queue: z.string().describe("the project queue's name, as the dashboard routes by it"),
  last_sync: lastSyncAnswer.nullable().describe("null when no sync job is among the kept ended jobs"),
  next_run_at: z.string().nullable().describe("the schedule's next run; null without `schedule`"),
  retrying: z
    .object({ ref: z.string(), id: z.string(), name: z.string(), runs_at: z.string(), attempts_started: z.int().nonnegative() })
    .nullable()
    .describe(
      "the project's sync job waiting for its retry (an upstream's Retry-After, at most `http.max_retry_after_ms`; a backoff): the project's events and sync requests join it; null when none waits",
    ),
  failed_count: z.int(),
  failed: z.array(
    z.object({
      ref: z.string(),
      id: z.string(),
      name: z.string(),
      queue: z.string(),
      failed_reason: z.string().nullable(),
      finished_at: z.string().nullable(),
    }),
  ),
  events: z.object({
    configured: z.boolean(),
    last_at: z.string().nullable(),
    age_seconds: z.int().nullable().describe("seconds since the last PIM event arrived; null before the first"),
    subscription: z
      .object({
        state: z.enum(SUBSCRIPTION_STATES),
        since: z.string().nullable().describe("when the platform built the notification that set it; null when never notified"),
        reason: z.string().nullable().describe("the platform's reason, when it gave one"),
      })
      .nullable()
      .describe(
        "the Event Platform subscription's state as its last notification left it (active until one says otherwise); null when not subscribed",
      ),
    fallback_every_ms: z
      .int()
      .nullable()
      .describe(
        "the interval of the project's fallback syncs while its events cannot be counted on (suspended, revoked or silent); null when there are none",
      ),
  }),
  held_pending: z.int(),
  held_approved: z.int(),
  held_options: z.int().describe("options of the plans awaiting approval"),
  held: z.array(
    heldPlanAnswer.extend({
      collections: z.array(
        z.object({
          collection: z.string(),
          options: z.array(z.string()),
          reason: z.string(),
          labels: z.array(labels).describe("each option's labels as pim-sync last wrote them (the sync state), null where none is known"),
        }),
      ),
    }),
  ),
  attention: z
    .array(z.enum(["failing", "held", "subscription_down", "events_silent"]))
    .describe("why the project needs a person, most urgent first"),
});
const budgetUsageAnswer = z.object({
  identity: z.string().describe("the upstream identity (never a credential: a digest or a configured name)"),
  kind: z.enum(["requests", "in_flight"]),
  limit: z.int(),
  window_ms: z.int().describe("for `requests`: the window the limit counts over"),
  projects: z.array(z.int()),
  in_use: z.int().describe("requests in the window, or calls in flight, now, over every process"),
  paused_for_ms: z.int().describe("how long every process still waits (an upstream's Retry-After); 0 when not paused"),
});
const dailyAnswer = z.object({
  day: z.string().describe("YYYY-MM-DD, UTC"),
  counts: z.object(Object.fromEntries(HISTORY_KINDS.map((kind) => [kind, z.int()])) as Record<(typeof HISTORY_KINDS)[number], z.ZodInt>),
  total: z.int(),
});

/** The console's JSON (console-routes.ts). */
export const consoleRouteSchemas = (keyStyle: JsonKeyStyle) => ({
  overview: adminRoute({
    summary: "Every project at a glance (those needing a person first) and each upstream budget's use now",
    description: "Viewers and admins. What the console's front page shows.",
    answers: {
      200: answer(
        "the overview",
        keyStyle === "camel"
          ? camelAnswer
          : z.object({ generated_at: z.string(), projects: z.array(projectOverviewAnswer), budgets: z.array(budgetUsageAnswer) }),
      ),
      ...GATE_REFUSALS,
    },
  }),
  historyDaily: adminRoute({
    summary: "A project's writes per day (UTC) and kind over the history's retention, oldest day first",
    description: "Viewers and admins. Every day of the retention is present (0 when nothing was written).",
    params: projectParams,
    answers: {
      200: answer("the days", keyStyle === "camel" ? camelAnswer : z.object({ days: z.array(dailyAnswer) })),
      ...refusals(404),
      ...GATE_REFUSALS,
    },
  }),
});
