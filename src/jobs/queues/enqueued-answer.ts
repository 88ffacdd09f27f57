import type { EnqueueStatus } from "./enqueue-job.js";

export interface EnqueuedAnswer {
  readonly job_id: string;
  readonly status: EnqueueStatus;
  /** With `delayed`: when the job runs (ISO 8601). */
  readonly runs_at?: string;
}

/** What a trigger, the admin API and the enqueueing commands answer for a queued request: one shape for all. */
export function enqueuedAnswer(ref: string, enqueued: { readonly status: EnqueueStatus; readonly runsAt?: number }): EnqueuedAnswer {
  return {
    job_id: ref,
    status: enqueued.status,
    ...(enqueued.runsAt === undefined ? {} : { runs_at: new Date(enqueued.runsAt).toISOString() }),
  };
}
