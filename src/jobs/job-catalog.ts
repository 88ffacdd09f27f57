import { z } from "zod";
import { addOptionsRequestSchema } from "../add-options/add-options-request.js";
import { activationJobSchemas } from "../activation/activation-job-schemas.js";
import { PimSyncError } from "../errors/pim-sync-error.js";

/**
 * Every job pim-sync runs: name → data schema and retry policy. The single source of truth:
 * data is validated when enqueued and again when processed (a job may have been queued by an
 * older version). Change schemas additively only: new fields optional, with a comment.
 * No secrets in job data: credentials come from the config of the worker that runs the job.
 */
export const JOB_CATALOG = {
  "sync.run": {
    schema: z.strictObject({
      project: z.int().positive(),
      full: z.boolean().default(false),
      allow_mass_delete: z.boolean().default(false),
      // `admin`: POST /admin/api/projects/:id/sync (added for the change history; `api` is the trigger endpoint).
      trigger: z.enum(["schedule", "cli", "api", "admin", "replay"]).default("cli"),
      requested_by: z.string().trim().min(1).max(200).optional(),
    }),
    // 5 attempts: 30 s, 1 min, 2 min, 4 min apart (± jitter), about 8 minutes of outage covered.
    attempts: 5,
    backoff: { type: "exponential", delay: 30_000, jitter: 0.5 },
  },
  // A targeted sync of what the project's PIM events named (src/events/): the targets are in
  // Redis, not in the job, so every event of a window is carried by one job.
  "sync.events": {
    schema: z.strictObject({ project: z.int().positive() }),
    // 5 attempts: 5 s doubling to 40 s; the scheduled sync takes over after that.
    attempts: 5,
    backoff: { type: "exponential", delay: 5_000, jitter: 0.5 },
  },
  "options.add": {
    schema: addOptionsRequestSchema,
    // 8 attempts: 10 s doubling to about 21 min, about 40 minutes of outage covered.
    attempts: 8,
    backoff: { type: "exponential", delay: 10_000, jitter: 0.5 },
  },
  // Activation API jobs (issue 8), on the `activation` queue (see activation-queue.ts).
  "activation.orders.pull": {
    schema: activationJobSchemas.ordersPull,
    // 5 attempts: 5 s doubling to 40 s, about 75 s covered; the next scheduled pull (5 min) takes over after that.
    attempts: 5,
    backoff: { type: "exponential", delay: 5_000, jitter: 0.5 },
  },
  "activation.offers.put": {
    schema: activationJobSchemas.offersPut,
    // 8 attempts: 10 s doubling to about 21 min, like add-options (a push someone asked for).
    attempts: 8,
    backoff: { type: "exponential", delay: 10_000, jitter: 0.5 },
  },
  "activation.orders.resend": {
    schema: activationJobSchemas.ordersResend,
    // Asked for by an operator: like a pull, a few quick attempts.
    attempts: 5,
    backoff: { type: "exponential", delay: 5_000, jitter: 0.5 },
  },
  "activation.shipment.update": {
    schema: activationJobSchemas.shipmentUpdate,
    attempts: 8,
    backoff: { type: "exponential", delay: 10_000, jitter: 0.5 },
  },
} as const;

export type JobName = keyof typeof JOB_CATALOG;
export type JobData<N extends JobName> = z.output<(typeof JOB_CATALOG)[N]["schema"]>;
export type JobInput<N extends JobName> = z.input<(typeof JOB_CATALOG)[N]["schema"]>;

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOB_CATALOG, name);
}

/** Jobs of a project queue (they carry `project`); the others run on the activation queue. */
export type ProjectJobName = "sync.run" | "sync.events" | "options.add";
export type ActivationJobName = Exclude<JobName, ProjectJobName>;

export function isProjectJobName(name: string): name is ProjectJobName {
  return name === "sync.run" || name === "sync.events" || name === "options.add";
}

export function isActivationJobName(name: string): name is ActivationJobName {
  return isJobName(name) && !isProjectJobName(name);
}

/** Thrown for job data that does not match its schema: never retried. */
export class JobDataError extends PimSyncError {
  constructor(
    readonly jobName: string,
    readonly problems: readonly string[],
  ) {
    super(`invalid ${jobName} job data: ${problems.join("; ")}`, { code: "JOB_DATA_INVALID", retryable: false });
    this.name = "JobDataError";
  }
}

export function parseJobData<N extends JobName>(name: N, data: unknown): JobData<N> {
  const parsed = JOB_CATALOG[name].schema.safeParse(data);
  if (!parsed.success) {
    throw new JobDataError(
      name,
      parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(data)"}: ${issue.message}`),
    );
  }
  return parsed.data as JobData<N>;
}
