/**
 * The attributes pim-sync adds to spans (docs/tracing.md lists them). Named under `pim_sync.` so
 * they never collide with the semantic conventions the instrumentations use.
 */
export const SPAN_ATTRIBUTES = {
  /** The project id a request or job is for. */
  project: "pim_sync.project",
  /** The BullMQ job id (without the project: `pim_sync.project` says it). */
  jobId: "pim_sync.job.id",
  /** The catalog's job name: sync.run, options.add, activation.*. */
  jobName: "pim_sync.job.name",
  /** How a job's run ended: completed, failed, retry, delayed, handed_back. */
  jobOutcome: "pim_sync.job.outcome",
  /** What the trigger endpoint did with a request: queued, merged, follows-running, duplicate. */
  enqueueStatus: "pim_sync.enqueue.status",
  /** The Activation connection an Activation job is for. */
  activationConnection: "pim_sync.activation.connection",
} as const;

export type SpanAttributeValues = Readonly<Record<string, string | number | boolean>>;
