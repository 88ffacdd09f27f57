import type { Job, JobType, Queue } from "bullmq";
import { ACTIVATION_QUEUE } from "../queues/activation-queue.js";
import type { JobQueues } from "../queues/job-queues.js";
import { DEFAULT_JOB_CATALOG, parseDataOf } from "../catalog/job-catalog.js";
import type { JobCatalog } from "../catalog/job-catalog-of.js";
import type { StoredJobData, StoredJobResult } from "../catalog/define-job.js";
import { camelCaseKeys, inKeyStyle, snakeCaseKeys, type JsonKeyStyle } from "../../core/json/json-key-style.js";
import { EMPTY_REDACTOR, type Redactor } from "../../infra/secrets/redactor.js";
import { PimSyncError } from "../../core/errors/pim-sync-error.js";
import { messageOf } from "../../core/errors/message-of.js";
import { delayedJobRunsAt } from "../queues/delayed-job-runs-at.js";

export const JOB_STATES = ["failed", "waiting", "active", "completed", "delayed", "prioritized", "waiting-children"] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface JobSummary {
  /** `<project>/<id>`: job ids are per project queue; `activation/<id>` for the Activation queue. */
  readonly ref: string;
  /** null for Activation jobs (they belong to no project). */
  readonly project: number | null;
  readonly id: string;
  readonly name: string;
  readonly state: string;
  readonly attemptsMade: number;
  readonly createdAt: string;
  readonly finishedAt: string | null;
  /** Why the job failed: set only while it is in the failed state. */
  readonly failedReason: string | null;
  /** What the job does, from its data: `color: teal, mint` or `full, allow_mass_delete`. */
  readonly summary: string;
  /** Of a completed job, what its result says beside `completed` (`held_back`); null for a plain success or another state. */
  readonly outcome: string | null;
  /** Of a delayed job, when it runs (a retry's wait, a PIM event window); null in every other state. */
  readonly runsAt: string | null;
}

export interface JobDetails extends JobSummary {
  readonly data: unknown;
  readonly result: unknown;
  /** The failure of the attempt that failed the job (the latest one): only in the failed state. */
  readonly stacktrace: readonly string[];
  /**
   * Failures of attempts before the current one (BullMQ keeps their stacks across retries):
   * history, not the job's present state.
   */
  readonly earlierStacktraces: readonly string[];
  /** A failed attempt that BullMQ will retry (the job is delayed or waiting again). */
  readonly pendingRetryReason: string | null;
  readonly logs: readonly string[];
  readonly attemptsStarted: number;
}

/** No such job: its id is unknown, or its project (or the Activation queue) is not configured. */
export class JobNotFoundError extends PimSyncError {
  override name = "JobNotFoundError";

  constructor(message: string) {
    super(message, { code: "JOB_NOT_FOUND", retryable: false });
  }
}

/** The reference names a project (or the Activation queue) this config does not have. */
export class QueueNotConfiguredError extends JobNotFoundError {
  override name = "QueueNotConfiguredError";
}

/** A job reference that is not one (`abc/1`, `67/a b`): the caller's mistake, not a missing job. */
export class JobRefError extends PimSyncError {
  override name = "JobRefError";

  constructor(message: string) {
    super(message, { code: "JOB_REF_INVALID", retryable: false });
  }
}

/** BullMQ ids are counters as text: `10` is newer than `9`. */
function compareIds(a: string | undefined, b: string | undefined): number {
  const [x, y] = [Number(a), Number(b)];
  if (Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return (a ?? "").localeCompare(b ?? "");
}

/** A short description of a job's data for listings, by its catalog entry; a name or data of an unknown shape is "?". */
export function summarizeJobData(name: string, data: unknown, catalog: JobCatalog = DEFAULT_JOB_CATALOG): string {
  if (data === null || typeof data !== "object" || !catalog.has(name)) return "?";
  return catalog.entry(name).summary(data as StoredJobData);
}

/**
 * A stored result with snake_case keys: results are stored so since 0.2; one stored camelCase by
 * an earlier version is converted on read, so every reader sees one shape.
 */
export function storedResultOf(returnvalue: unknown): unknown {
  return snakeCaseKeys(returnvalue ?? null);
}

/**
 * A job's details in `style`: under `--json-keys camel` (removed in 0.3.0) its result camelCase
 * too, as earlier versions stored it; the rest as every other answer.
 */
export function jobDetailsInKeyStyle(job: JobDetails, style: JsonKeyStyle): unknown {
  return style === "camel" ? { ...job, result: jobResultInKeyStyle(job.result, style) } : inKeyStyle(job, style);
}

/**
 * Keys of stored results that were snake_case before results were stored so (0.2): an
 * add-options result's `merged_into` and its `batch`'s `left_to_run` and `service_calls`. The
 * camel shape is the earlier one, so they stay as scripts written then read them.
 */
const RESULT_KEYS_ALWAYS_SNAKE: ReadonlySet<string> = new Set(["merged_into", "left_to_run", "service_calls"]);

/** A stored job result in `style` (see jobDetailsInKeyStyle). */
export function jobResultInKeyStyle(result: unknown, style: JsonKeyStyle): unknown {
  return style === "camel" ? camelCaseKeys(result, RESULT_KEYS_ALWAYS_SNAKE) : snakeCaseKeys(result);
}

/** What a listing shows beside a completed job's state, by its catalog entry (null for a plain success). */
export function listedOutcomeOf(name: string, returnvalue: unknown, catalog: JobCatalog = DEFAULT_JOB_CATALOG): string | null {
  const result = storedResultOf(returnvalue);
  if (result === null || typeof result !== "object" || Array.isArray(result) || !catalog.has(name)) return null;
  return catalog.entry(name).listedOutcome?.(result as StoredJobResult) ?? null;
}

/** Parses `67/12` (or `12` when only one project is configured). */
export function parseJobRef(ref: string, projects: readonly number[]): { project: number; id: string } {
  const match = /^(?:(\d+)\/)?([A-Za-z0-9_:.-]+)$/.exec(ref.trim());
  if (!match?.[2]) throw new JobRefError(`'${ref}' is not a job reference: use <project>/<id>, as \`pim-sync jobs list\` prints`);
  if (match[1] !== undefined) return { project: Number(match[1]), id: match[2] };
  if (projects.length === 1 && projects[0] !== undefined) return { project: projects[0], id: match[2] };
  throw new JobRefError(`'${ref}' needs its project: <project>/<id> (several projects are configured)`);
}

/** A queue the admin reads: a project's, or the Activation queue (`project` null). */
interface AdminQueue {
  readonly project: number | null;
  readonly queue: Queue;
}

const refOf = (project: number | null, id: string | undefined): string => `${project === null ? ACTIVATION_QUEUE : project}/${id ?? ""}`;

async function summarize(project: number | null, job: Job, queue: Queue, catalog: JobCatalog): Promise<JobSummary> {
  const state = await job.getState();
  const runsAt = state === "delayed" && job.id !== undefined ? await delayedJobRunsAt(queue, job.id) : null;
  return {
    ref: refOf(project, job.id),
    project,
    id: job.id ?? "",
    name: job.name,
    state,
    attemptsMade: job.attemptsMade,
    createdAt: new Date(job.timestamp).toISOString(),
    finishedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    failedReason: state === "failed" ? job.failedReason || null : null,
    summary: summarizeJobData(job.name, job.data, catalog),
    outcome: state === "completed" ? listedOutcomeOf(job.name, job.returnvalue, catalog) : null,
    runsAt: runsAt === null ? null : new Date(runsAt).toISOString(),
  };
}

/** Inspection and replay, for admins (`pim-sync jobs …`). */
/**
 * Lists, shows and replays jobs, for `jobs` and the admin and job routes. What it shows (data,
 * result, failed reasons, stacks, logs) goes through `redactor` (the configured secrets): jobs
 * written by an older version, or by a worker with other settings, may hold them.
 */
export function createJobAdmin(
  queues: JobQueues,
  options: {
    readonly activation?: Queue;
    readonly redactor?: Redactor;
    /** The catalog's list, or in a test the list with an entry of its own. */ readonly catalog?: JobCatalog;
  } = {},
) {
  const redactor = options.redactor ?? EMPTY_REDACTOR;
  const catalog = options.catalog ?? DEFAULT_JOB_CATALOG;
  /** Every queue to look at: the project's, or all projects' plus the Activation queue when configured. */
  function targetsOf(project?: number): AdminQueue[] {
    if (project !== undefined) {
      if (!queues.projects.includes(project)) throw new QueueNotConfiguredError(`project ${project} is not configured`);
      return [{ project, queue: queues.queueFor(project) }];
    }
    const targets: AdminQueue[] = queues.projects.map((id) => ({ project: id, queue: queues.queueFor(id) }));
    if (options.activation) targets.push({ project: null, queue: options.activation });
    return targets;
  }

  async function getJob(ref: string): Promise<{ project: number | null; job: Job; queue: Queue }> {
    const activationRef = new RegExp(`^\\s*${ACTIVATION_QUEUE}/([A-Za-z0-9_:.-]+)\\s*$`).exec(ref);
    if (activationRef?.[1] !== undefined) {
      // Asked of this worker, the job cannot exist here: a 404, not a failure to retry.
      if (!options.activation) throw new QueueNotConfiguredError("the Activation queue is not configured (no `activation` section)");
      const job = await options.activation.getJob(activationRef[1]);
      if (!job)
        throw new JobNotFoundError(
          `job ${ACTIVATION_QUEUE}/${activationRef[1]} not found (it may have been removed after its retention period)`,
        );
      return { project: null, job, queue: options.activation };
    }
    const { project, id } = parseJobRef(ref, queues.projects);
    if (!queues.projects.includes(project)) throw new QueueNotConfiguredError(`project ${project} is not configured`);
    const job = await queues.queueFor(project).getJob(id);
    if (!job) throw new JobNotFoundError(`job ${project}/${id} not found (it may have been removed after its retention period)`);
    return { project, job, queue: queues.queueFor(project) };
  }

  return {
    /** The newest `limit` jobs over every project asked for (not `limit` per project or state). */
    async list(options: { readonly state?: JobState; readonly project?: number; readonly limit?: number } = {}): Promise<JobSummary[]> {
      const types: JobType[] = options.state ? [options.state] : [...JOB_STATES];
      const limit = options.limit ?? 100;
      const found: { project: number | null; job: Job; queue: Queue }[] = [];
      for (const target of targetsOf(options.project)) {
        // Each state's list is ordered on its own, so the newest `limit` overall can sit anywhere
        // in each: take `limit` of every state, then keep the newest across all of them.
        for (const type of types) {
          for (const job of await target.queue.getJobs([type], 0, limit - 1)) found.push({ ...target, job });
        }
      }
      const newest = found.sort((a, b) => b.job.timestamp - a.job.timestamp || compareIds(b.job.id, a.job.id)).slice(0, limit);
      return redactor.redactValue(await Promise.all(newest.map(({ project, job, queue }) => summarize(project, job, queue, catalog))));
    },

    async show(ref: string): Promise<JobDetails> {
      const { project, job, queue } = await getJob(ref);
      const logs = await queue.getJobLogs(job.id ?? "");
      const summary = await summarize(project, job, queue, catalog);
      const stacks = job.stacktrace ?? [];
      const failedNow = summary.state === "failed";
      return redactor.redactValue({
        ...summary,
        data: job.data as unknown,
        result: storedResultOf(job.returnvalue),
        stacktrace: failedNow ? stacks.slice(-1) : [],
        earlierStacktraces: failedNow ? stacks.slice(0, -1) : stacks,
        pendingRetryReason: failedNow ? null : job.failedReason || null,
        logs: logs.logs,
        attemptsStarted: job.attemptsStarted,
      });
    },

    /**
     * Replays failed jobs with a fresh attempt budget. The data is validated again first: a job
     * whose data no longer parses (an older version's) is reported, not replayed.
     */
    async retry(refs: readonly string[]): Promise<{ ref: string; outcome: "retried" | "skipped"; reason?: string }[]> {
      const results: { ref: string; outcome: "retried" | "skipped"; reason?: string }[] = [];
      for (const ref of refs) {
        let found: { project: number | null; job: Job };
        try {
          found = await getJob(ref);
        } catch (error) {
          // A project that is not configured is the caller's mistake, not a job that expired.
          if (!(error instanceof JobNotFoundError) || error instanceof QueueNotConfiguredError) throw error;
          results.push({ ref, outcome: "skipped", reason: "not found" });
          continue;
        }
        const { project, job } = found;
        const state = await job.getState();
        const summaryRef = refOf(project, job.id);
        if (state !== "failed") {
          results.push({ ref: summaryRef, outcome: "skipped", reason: `it is ${state}, not failed` });
          continue;
        }
        try {
          const entry = catalog.entry(job.name);
          parseDataOf(job.name, entry.schema, job.data);
        } catch (error) {
          results.push({ ref: summaryRef, outcome: "skipped", reason: messageOf(error) });
          continue;
        }
        await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
        results.push({ ref: summaryRef, outcome: "retried" });
      }
      return results;
    },

    async failedRefs(project?: number): Promise<string[]> {
      const refs: string[] = [];
      for (const target of targetsOf(project)) {
        for (const job of await target.queue.getJobs(["failed"], 0, -1)) refs.push(refOf(target.project, job.id));
      }
      return refs;
    },
  };
}

export type JobAdmin = ReturnType<typeof createJobAdmin>;
