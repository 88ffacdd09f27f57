import type { z } from "zod";
import { PimSyncError } from "../../core/errors/pim-sync-error.js";
import { activationOffersPutJob } from "./activation-offers-put.js";
import { activationOrdersPullJob } from "./activation-orders-pull.js";
import { activationOrdersResendJob } from "./activation-orders-resend.js";
import { activationShipmentUpdateJob } from "./activation-shipment-update.js";
import { jobCatalogOf, type JobCatalog } from "./job-catalog-of.js";
import { optionsAddJob } from "./options-add.js";
import { syncEventsJob } from "./sync-events.js";
import { syncRunJob } from "./sync-run.js";

/**
 * Every job pim-sync runs, one entry each (src/jobs/catalog/): the single source of truth of
 * their names, queues, data, retry policy, time limit, listing line, metric outcome and handler.
 * The queues, the one processor, the admin listing and the metrics read it; nothing else lists
 * job names. Adding a job: docs/adding-a-job.md.
 */
export const JOB_DEFINITIONS = [
  syncRunJob,
  syncEventsJob,
  optionsAddJob,
  activationOrdersPullJob,
  activationOffersPutJob,
  activationOrdersResendJob,
  activationShipmentUpdateJob,
] as const;

type Definition = (typeof JOB_DEFINITIONS)[number];
/** The catalog's entries, each with its literal name and data type. */
export type CatalogJobDefinition = Definition;
export type JobName = Definition["name"];
export type JobDefinitionOf<N extends JobName> = Extract<Definition, { readonly name: N }>;
export type JobData<N extends JobName> = z.output<JobDefinitionOf<N>["schema"]>;
export type JobInput<N extends JobName> = z.input<JobDefinitionOf<N>["schema"]>;
/** Jobs of a project queue (they carry `project`). */
export type ProjectJobName = Extract<Definition, { readonly queue: "project" }>["name"];
/** Jobs of the Activation queue (they carry `connection`). */
export type ActivationJobName = Extract<Definition, { readonly queue: "activation" }>["name"];

/** The entries by name, typed: `JOB_CATALOG["sync.run"].schema`. */
export const JOB_CATALOG = Object.fromEntries(JOB_DEFINITIONS.map((definition) => [definition.name, definition])) as unknown as {
  readonly [N in JobName]: JobDefinitionOf<N>;
};

/** The catalog the worker runs, looked up by the names Redis holds. */
export const DEFAULT_JOB_CATALOG: JobCatalog = jobCatalogOf(JOB_DEFINITIONS);

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOB_CATALOG, name);
}

export function isProjectJobName(name: string): name is ProjectJobName {
  return isJobName(name) && JOB_CATALOG[name].queue === "project";
}

export function isActivationJobName(name: string): name is ActivationJobName {
  return isJobName(name) && JOB_CATALOG[name].queue === "activation";
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

/** The data as the schema makes it (defaults filled in); JobDataError naming every field that is wrong. */
export function parseDataOf<D>(name: string, schema: z.ZodType<D>, data: unknown): D {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new JobDataError(
      name,
      parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(data)"}: ${issue.message}`),
    );
  }
  return parsed.data;
}

export function parseJobData<N extends JobName>(name: N, data: unknown): JobData<N> {
  return parseDataOf(name, JOB_CATALOG[name].schema as unknown as z.ZodType<JobData<N>>, data);
}
