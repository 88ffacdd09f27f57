import { z } from "zod";

/** The answer of a refusal that has one reason: a missing credential, an unknown job, a worker starting. */
export const errorAnswer = z.object({ error: z.string() });
/** The answer of a refused request body or query: every reason, each naming the field. */
export const problemsAnswer = z.object({ errors: z.array(z.string()).min(1) });

/** A job queued (or found already queued) for a request: what a caller polls `GET /v1/jobs/...` with. */
export const queuedAnswer = z.object({
  job_id: z.string().describe("`<project>/<id>`, or `activation/<id>` for the Activation queue"),
  status: z
    .enum(["queued", "merged", "delayed", "follows-running", "duplicate"])
    .describe(
      "queued: a new job; merged: folded into a waiting job; delayed: folded into a job waiting for its retry (an upstream's Retry-After, a backoff), which runs at `runs_at`, at most `http.max_retry_after_ms` from now (one due later is brought forward); follows-running: a job follows the running one; duplicate: the Idempotency-Key named an existing job",
    ),
  runs_at: z.string().optional().describe("with `delayed` only: when the job runs (ISO 8601)"),
});

/** The refusals every route may give, by status, with the shape the server's error handler answers. */
const REFUSALS = {
  400: ["the request is refused; `errors` names every problem, each with its field", problemsAnswer],
  401: ["credentials missing or wrong; WWW-Authenticate names the scheme", errorAnswer],
  403: ["the user may not do this: the role, the admin route table or a cross-site request", errorAnswer],
  404: ["no such job, project or route", errorAnswer],
  409: ["the resource changed while the request was carried out; try again", errorAnswer],
  413: ["the body is larger than the server reads (1,000,000 bytes)", problemsAnswer],
  415: ["the body is not sent as application/json", problemsAnswer],
  422: ["the Idempotency-Key was used before with another body", problemsAnswer],
  429: ["too many failed logins from this address or user name; Retry-After says when to try again", errorAnswer],
  503: [
    "the worker is starting or Redis did not answer in time (Retry-After then says when to try again), or the request could not be handled",
    errorAnswer,
  ],
} as const;

export type RefusalStatus = keyof typeof REFUSALS;

export interface Answer {
  readonly description: string;
  readonly schema: z.ZodType;
  /** `application/json` when left out; otherwise the schema describes the text. */
  readonly mediaType?: string;
}

export function answer(description: string, schema: z.ZodType): Answer {
  return { description, schema };
}

/** The standard refusals for these statuses. */
export function refusals(...statuses: readonly RefusalStatus[]): Record<number, Answer> {
  return Object.fromEntries(statuses.map((status) => [status, { description: REFUSALS[status][0], schema: REFUSALS[status][1] }]));
}
