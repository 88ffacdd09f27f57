import type { JobsOptions } from "bullmq";
import type { WorkerSettings } from "../../settings/settings-schema.js";
import type { AnyJobDefinition } from "../catalog/define-job.js";
import { JOB_CATALOG, type JobName } from "../catalog/job-catalog.js";

const DAY_SECONDS = 86_400;
/** Completed jobs kept at most, whatever their age: a busy schedule must not fill Redis. */
const MAX_COMPLETED_KEPT = 1000;

export type JobRetention = Pick<WorkerSettings, "keep_completed_days" | "keep_failed_days">;

/**
 * The options of every job pim-sync creates, whoever creates it (enqueue, trigger, job
 * scheduler; replays and delayed re-queues keep the options the job was created with): the
 * catalog's retry policy and a bounded retention, so no path can leave jobs in Redis forever.
 */
export function jobOptionsFor(
  name: JobName,
  retention: JobRetention,
): Pick<JobsOptions, "attempts" | "backoff" | "removeOnComplete" | "removeOnFail"> {
  return jobOptionsOf(JOB_CATALOG[name], retention);
}

/** `jobOptionsFor`, of an entry (one a test added to the catalog's list, too). */
export function jobOptionsOf(
  entry: Pick<AnyJobDefinition, "attempts" | "backoff">,
  retention: JobRetention,
): Pick<JobsOptions, "attempts" | "backoff" | "removeOnComplete" | "removeOnFail"> {
  return {
    attempts: entry.attempts,
    backoff: { ...entry.backoff },
    removeOnComplete: { age: retention.keep_completed_days * DAY_SECONDS, count: MAX_COMPLETED_KEPT },
    removeOnFail: { age: retention.keep_failed_days * DAY_SECONDS },
  };
}

/**
 * How long a trigger's Idempotency-Key, and a job's final status, are kept: as long as the
 * longest retention, so a redelivery or a poll after the job itself was removed is still answered.
 */
export function idempotencyWindowSeconds(retention: JobRetention): number {
  return Math.max(retention.keep_completed_days, retention.keep_failed_days) * DAY_SECONDS;
}
