import { z } from "zod";
import { JOB_STATES } from "../../jobs/admin/job-admin.js";
import { JOB_CATALOG } from "../../jobs/catalog/job-catalog.js";
import { answer, queuedAnswer, refusals } from "../openapi/answer-schemas.js";
import { routeSchema } from "../openapi/route-schema.js";
import { TRIGGER_SECURITY } from "../openapi/security-schemes.js";

/** What a caller needs to follow the job its 202 named: no data, stacks or logs. */
export const jobStatusAnswer = z.object({
  job_id: z.string(),
  name: z.string(),
  state: z.string().describe(`BullMQ's state of the job: ${JOB_STATES.join(", ")}`),
  attempts_made: z.int().nonnegative(),
  created_at: z.string().describe("ISO time"),
  finished_at: z.string().nullable(),
  result: z.unknown().describe("the job's result once completed; null before"),
  failed_reason: z.string().nullable(),
  retrying_after: z.string().nullable().describe("why an attempt failed that will be retried"),
  runs_at: z.string().nullable().describe("of a delayed job (waiting for its retry), when it runs; else null"),
});

const idempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .optional()
    .describe("the same key within the idempotency window names the same job (a 202 `duplicate`); with another body it is refused (422)"),
});

/** Every POST trigger route: the token is checked before the body is read. */
const POST_REFUSALS = refusals(400, 401, 413, 415, 429, 503);
const QUEUED = answer("the job is stored (or an equal one was): poll GET /v1/jobs/{project}/{id} with `job_id`", queuedAnswer);

export const syncRouteSchema = routeSchema({
  summary: "Queue a sync of a project",
  tags: ["trigger"],
  security: TRIGGER_SECURITY,
  body: JOB_CATALOG["sync.run"].schema.omit({ trigger: true }),
  answers: { 202: QUEUED, ...POST_REFUSALS },
});

export const addOptionsRouteSchema = routeSchema({
  summary: "Queue options to add to a PIM attribute and its collections",
  description:
    "Checked first against the project's `allowed_options_for_pim_attribute_addition` and its label locales: a 400 names every problem.",
  tags: ["trigger"],
  security: TRIGGER_SECURITY,
  body: JOB_CATALOG["options.add"].schema,
  headers: idempotencyHeaders,
  answers: { 202: QUEUED, ...POST_REFUSALS, ...refusals(422) },
});

export const activationOffersRouteSchema = routeSchema({
  summary: "Queue offers to put to an Activation channel connection",
  tags: ["trigger"],
  security: TRIGGER_SECURITY,
  body: JOB_CATALOG["activation.offers.put"].schema,
  headers: idempotencyHeaders,
  answers: { 202: QUEUED, ...POST_REFUSALS, ...refusals(422) },
});

export const activationShipmentsRouteSchema = routeSchema({
  summary: "Queue a shipment update to an Activation channel connection",
  tags: ["trigger"],
  security: TRIGGER_SECURITY,
  body: JOB_CATALOG["activation.shipment.update"].schema,
  headers: idempotencyHeaders,
  answers: { 202: QUEUED, ...POST_REFUSALS, ...refusals(422) },
});

export const jobStatusRouteSchema = routeSchema({
  summary: "How a job queued by a trigger route is doing",
  description: "Answers for a removed job too, from its recorded end, within the idempotency window.",
  tags: ["trigger"],
  security: TRIGGER_SECURITY,
  params: z.object({ project: z.string().describe("a project id, or `activation`"), id: z.string() }),
  answers: { 200: answer("the job", jobStatusAnswer), ...refusals(400, 401, 404, 429, 503) },
});
