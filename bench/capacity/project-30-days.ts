/**
 * A project's Redis after 30 days, from what the benchmark measured over a few runs: the first
 * sync's footprint, plus what the runs of 30 days leave that is still kept on day 30. The
 * assumptions (stated in docs/capacity.md): an hourly schedule (24 runs a day), 1% of the
 * options relabelled a day, one of the day's runs writing them; no held plans (a held plan
 * lasts until approved or replaced, one per collection at most: its size is a plan's, see the
 * figures of the changing run). Figures are bytes (`MEMORY USAGE`).
 */
import type { RedisFootprint } from "./redis-footprint.js";

export const DAYS = 30;
export const RUNS_PER_DAY = 24;
/** BullMQ keeps at most this many completed jobs per project (src/jobs/queues/job-options.ts). */
export const MAX_COMPLETED_KEPT = 1_000;
export const CHANGED_SHARE_PER_DAY = 0.01;

export interface ThirtyDayProjection {
  readonly bytes: number;
  readonly first_sync_bytes: number;
  /** BullMQ's completed jobs still kept on day 30: min(1,000, days kept × runs a day). */
  readonly queue_jobs_kept: number;
  readonly queue_jobs_bytes: number;
  /** Final-status records still kept on day 30: min(30, their days) × runs a day. */
  readonly job_statuses_kept: number;
  readonly job_status_bytes: number;
  readonly changed_options_30_days: number;
  readonly history_bytes: number;
}

export function project30Days(input: {
  readonly afterFirstSync: RedisFootprint;
  readonly perNoopSync: RedisFootprint;
  readonly perChangingSync: RedisFootprint;
  readonly changedOptions: number;
  readonly options: number;
  readonly retention: { readonly completedDays: number; readonly statusDays: number };
}): ThirtyDayProjection {
  const jobsKept = Math.min(MAX_COMPLETED_KEPT, Math.min(DAYS, input.retention.completedDays) * RUNS_PER_DAY);
  const statusesKept = Math.min(DAYS, input.retention.statusDays) * RUNS_PER_DAY;
  const queueJobBytes = Math.max(0, input.perNoopSync.families["queue:jobs"].bytes);
  // One record per run: per key, as a record of the run before may land after its measurement.
  const status = input.perNoopSync.families["job-status"];
  const statusBytes = status.keys <= 0 ? 0 : Math.round(status.bytes / status.keys);
  const perChangedOption =
    input.changedOptions === 0 ? 0 : Math.max(0, input.perChangingSync.families.history.bytes) / input.changedOptions;
  const changed30 = Math.round(input.options * CHANGED_SHARE_PER_DAY) * DAYS;
  const historyBytes = Math.round(perChangedOption * changed30);
  const queueJobsBytes = jobsKept * queueJobBytes;
  const jobStatusBytes = statusesKept * statusBytes;
  return {
    bytes: input.afterFirstSync.bytes + queueJobsBytes + jobStatusBytes + historyBytes,
    first_sync_bytes: input.afterFirstSync.bytes,
    queue_jobs_kept: jobsKept,
    queue_jobs_bytes: queueJobsBytes,
    job_statuses_kept: statusesKept,
    job_status_bytes: jobStatusBytes,
    changed_options_30_days: changed30,
    history_bytes: historyBytes,
  };
}
