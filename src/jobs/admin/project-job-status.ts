import type { Job } from "bullmq";
import { z } from "zod";
import { SYNC_SCHEDULER_ID } from "../../infra/redis/queue-names.js";
import type { JobQueues } from "../queues/job-queues.js";
import { storedResultOf } from "./job-admin.js";
import { delayedJobRunsAt } from "../queues/delayed-job-runs-at.js";

/** How a project's last sync ended, from its job. */
export interface LastSync {
  readonly job: string;
  readonly name: string;
  readonly finishedAt: string;
  readonly outcome: "done" | "held_back" | "failed";
  /** Options upserted and deleted (0 for a failed job: its result was not kept). */
  readonly written: number;
  /** Options the deletion guard held back. */
  readonly held: number;
  /** What the run could not do: for `sync.events` the targets it gave up, for a failed job 1 (the job). */
  readonly failed: number;
  /** Collections the service has that the PIM lacks (or that are not in the project's scope): nothing is written to them. */
  readonly missing: number;
  readonly failedReason: string | null;
}

export interface FailedJob {
  readonly ref: string;
  readonly id: string;
  readonly name: string;
  /** The queue's name, as the dashboard (bull-board) routes by it. */
  readonly queue: string;
  readonly failedReason: string | null;
  readonly finishedAt: string | null;
}

/** A sync job that ran and waits for its retry (an upstream's Retry-After, a backoff). */
export interface RetryingSync {
  readonly ref: string;
  readonly id: string;
  readonly name: string;
  /** When it runs (ISO time): at most `http.max_retry_after_ms` after an upstream's Retry-After. */
  readonly runsAt: string;
  readonly attemptsStarted: number;
}

export interface ProjectJobStatus {
  /** The project queue's name, as the dashboard (bull-board) routes by it. */
  readonly queue: string;
  readonly lastSync: LastSync | null;
  /** When the schedule runs the next sync, or null without a schedule. */
  readonly nextRunAt: string | null;
  /** The project's sync waiting for its retry, or null: what the events and "Sync now" requests of the project wait for. */
  readonly retrying: RetryingSync | null;
  readonly failedCount: number;
  /** The newest failed jobs (at most FAILED_SHOWN). */
  readonly failed: readonly FailedJob[];
}

const SYNC_JOBS = new Set(["sync.run", "sync.events"]);
/** How far back the last sync is looked for among the newest ended jobs (add-options jobs come between). */
const ENDED_LOOKED_AT = 25;
const FAILED_SHOWN = 5;

/**
 * The part of a sync job's result the overview reads (sync-job-result.ts), as stored: snake_case
 * (storedResultOf also turns an earlier version's camelCase into it); older results may lack fields.
 */
const syncResultSchema = z.object({
  outcome: z.enum(["done", "held_back"]).catch("done"),
  upserts: z.number().catch(0),
  deletes: z.number().catch(0),
  held_back: z.array(z.object({ names: z.number().catch(0) })).catch([]),
  missing: z.array(z.unknown()).catch([]),
  given_up: z.number().optional().catch(undefined),
});

const isoOf = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

function lastSyncOf(project: number, job: Job, state: "completed" | "failed"): LastSync {
  const base = { job: `${project}/${job.id ?? ""}`, name: job.name, finishedAt: isoOf(job.finishedOn) ?? "" };
  if (state === "failed")
    return { ...base, outcome: "failed", written: 0, held: 0, failed: 1, missing: 0, failedReason: job.failedReason || null };
  const result = syncResultSchema.safeParse(storedResultOf(job.returnvalue));
  if (!result.success) return { ...base, outcome: "done", written: 0, held: 0, failed: 0, missing: 0, failedReason: null };
  return {
    ...base,
    outcome: result.data.outcome,
    written: result.data.upserts + result.data.deletes,
    held: result.data.held_back.reduce((sum, collection) => sum + collection.names, 0),
    failed: result.data.given_up ?? 0,
    missing: result.data.missing.length,
    failedReason: null,
  };
}

/**
 * What the queue knows of a project for the console's overview: its last sync job, its next
 * scheduled run and its failed jobs. A few reads of the project's queue, all bounded.
 */
export async function readProjectJobStatus(queues: JobQueues, project: number): Promise<ProjectJobStatus> {
  const queue = queues.queueFor(project);
  const [completed, failedJobs, counts, scheduler, delayed] = await Promise.all([
    queue.getJobs(["completed"], 0, ENDED_LOOKED_AT - 1),
    queue.getJobs(["failed"], 0, ENDED_LOOKED_AT - 1),
    queue.getJobCounts("failed"),
    queue.getJobScheduler(SYNC_SCHEDULER_ID),
    queue.getJobs(["delayed"], 0, ENDED_LOOKED_AT - 1),
  ]);
  const ended = [
    ...completed.map((job) => ({ job, state: "completed" as const })),
    ...failedJobs.map((job) => ({ job, state: "failed" as const })),
  ]
    .filter(({ job }) => SYNC_JOBS.has(job.name) && job.finishedOn !== undefined)
    .sort((a, b) => (b.job.finishedOn ?? 0) - (a.job.finishedOn ?? 0));
  const last = ended[0];
  const failed = failedJobs
    .sort((a, b) => (b.finishedOn ?? 0) - (a.finishedOn ?? 0))
    .slice(0, FAILED_SHOWN)
    .map((job) => ({
      ref: `${project}/${job.id ?? ""}`,
      id: job.id ?? "",
      name: job.name,
      queue: queue.name,
      failedReason: job.failedReason || null,
      finishedAt: isoOf(job.finishedOn),
    }));
  // One waits at most (syncs of a project share one deduplication id); a first run's delay is an event window, not a retry.
  const retryingJob = delayed.find((job) => SYNC_JOBS.has(job.name) && job.attemptsStarted > 0 && job.id !== undefined);
  const runsAt = retryingJob?.id === undefined ? null : await delayedJobRunsAt(queue, retryingJob.id);
  return {
    queue: queue.name,
    lastSync: last === undefined ? null : lastSyncOf(project, last.job, last.state),
    nextRunAt: scheduler?.next === undefined ? null : new Date(scheduler.next).toISOString(),
    retrying:
      retryingJob?.id === undefined || runsAt === null
        ? null
        : {
            ref: `${project}/${retryingJob.id}`,
            id: retryingJob.id,
            name: retryingJob.name,
            runsAt: new Date(runsAt).toISOString(),
            attemptsStarted: retryingJob.attemptsStarted,
          },
    failedCount: counts.failed ?? failed.length,
    failed,
  };
}
