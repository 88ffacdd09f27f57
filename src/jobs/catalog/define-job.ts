import type { z } from "zod";
import type { ActivationJobContext } from "../../features/activation/activation-job-context.js";
import type { Settings } from "../../settings/settings-schema.js";
import type { JobContext } from "../handlers/job-context.js";
import type { JobInfrastructure } from "../handlers/job-infrastructure.js";

/** The two kinds of queue: one per project (one job at a time each), and the one Activation queue. */
export type JobQueueKind = "project" | "activation";

/** What a job's data must name on its queue: the project whose queue it runs on, or the channel connection. */
export interface JobQueueSubjects {
  readonly project: { readonly project: number };
  readonly activation: { readonly connection: string };
}

/** What a handler is given on each kind of queue. */
export interface JobQueueContexts {
  readonly project: JobContext;
  readonly activation: ActivationJobContext;
}

/** A job's data as Redis holds it: possibly written by an older version, so read defensively. */
export type StoredJobData = Readonly<Record<string, unknown>>;

/** A completed job's result as Redis holds it, keys snake_case (converted on read when an older version stored them camelCase). */
export type StoredJobResult = Readonly<Record<string, unknown>>;

export interface JobBackoff {
  readonly type: "exponential";
  readonly delay: number;
  readonly jitter: number;
}

/**
 * How a request becomes a job (see enqueue-job.ts):
 * - `each`: a new job per request; with an Idempotency-Key, repeated deliveries make one job;
 * - `one-waiting`: at most one job waiting per deduplication id (a request finding one joins it)
 *   and, while one runs, one more follows it;
 * - `merge-sync`: `sync.run`'s own, which also merges `full`/`allow_mass_delete` (enqueue-sync.ts).
 */
export type EnqueuePolicy<D> =
  | { readonly kind: "each"; /** Job ids made from an Idempotency-Key start with it. */ readonly idempotentJobIdPrefix?: string }
  | { readonly kind: "one-waiting"; deduplicationId(data: D): string }
  | { readonly kind: "merge-sync" };

/**
 * One job pim-sync runs: everything the queues, the processor, the admin listing and the metrics
 * need to know of it. Adding a job is adding one of these to the list in job-catalog.ts, and its
 * handler (docs/adding-a-job.md). Handlers are declared as methods so that entries of different
 * data types fit one list; the processor only ever calls an entry with data its schema parsed.
 */
export interface JobDefinition<
  N extends string = string,
  Q extends JobQueueKind = JobQueueKind,
  S extends z.ZodType<JobQueueSubjects[Q]> = z.ZodType<JobQueueSubjects[Q]>,
  R = unknown,
  D extends object = NoDeps,
> {
  readonly name: N;
  readonly queue: Q;
  /**
   * Validated when enqueued and again when processed (a job may have been queued by an older
   * version). Change it additively only: new fields optional. No secrets in job data: credentials
   * come from the config of the worker that runs the job.
   */
  readonly schema: S;
  readonly attempts: number;
  readonly backoff: JobBackoff;
  /** The bound on one run: its signal aborts after this. */
  timeoutMs(settings: Settings): number;
  /** One line for `jobs list` and the admin listing. */
  summary(data: StoredJobData): string;
  /**
   * Thin: the data is parsed; call the core, log, and turn its report into a result or an error.
   * Entries import their handler module when first called (`async (data, context) => (await
   * import(...)).run(data, context)`): the catalog is read by `jobs list` and the enqueueing
   * commands too, which would otherwise load every upstream client and feature at start.
   */
  handler(data: z.output<S>, context: JobQueueContexts[Q] & { readonly deps: D }): Promise<R>;
  /**
   * What the handler needs beyond its queue's context (its stores, a view of its queue), built
   * from the worker's infrastructure once per worker, when the entry's first job runs; the handler
   * finds it in `context.deps`. A job that needs something new declares it here, in its own
   * files: no shared context, binding or worker start changes (docs/adding-a-job.md). Like the
   * handler, imported on first use.
   */
  readonly deps?: (infra: JobInfrastructure) => D | Promise<D>;
  /**
   * The `outcome` label of `pim_sync_job_runs_total` for a run that ended without error (`ok`
   * when left out); failed runs are `failed` or `failed_permanently`. Keep the values few.
   */
  metricOutcome?(result: R): string;
  /**
   * What a listing shows beside a completed job's state (`jobs list`, the admin API's `outcome`,
   * the dashboard's job name), from its stored result: null (or left out) for a plain success.
   * For what an operator must not take for done, such as a sync whose deletions were held back.
   */
  listedOutcome?(result: StoredJobResult): string | null;
  /** `each` when left out. */
  readonly enqueue?: EnqueuePolicy<z.output<S>>;
  /**
   * False: a completed run leaves no final-status record past BullMQ's retention (a failure for
   * good still does). For jobs that come in streams and that nobody polls by id: a record each
   * would make Redis grow with the stream (docs/capacity.md). True when left out.
   */
  readonly recordsCompletion?: boolean;
}

/** Any entry of the catalog, whatever its data. */
export type AnyJobDefinition = JobDefinition<string, JobQueueKind, z.ZodType<JobQueueSubjects[JobQueueKind]>, unknown, object>;

/** The deps of an entry that declares none. */
export type NoDeps = Readonly<Record<never, never>>;

/** Keeps an entry's literal name and its types, so the catalog's names and data types derive from it. */
export function defineJob<
  const N extends string,
  Q extends JobQueueKind,
  S extends z.ZodType<JobQueueSubjects[Q]>,
  R,
  D extends object = NoDeps,
>(definition: JobDefinition<N, Q, S, R, D>): JobDefinition<N, Q, S, R, D> {
  return definition;
}
