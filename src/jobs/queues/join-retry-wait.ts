import type { Job, Queue } from "bullmq";
import { delayedJobRunsAt } from "./delayed-job-runs-at.js";

/**
 * A request joins a job that has not started: when that job is waiting for a retry (it ran
 * before and was delayed: an upstream's `Retry-After`, a budget's pause, the catalog's backoff),
 * the request must not wait with it for longer than `capMs` (`http.max_retry_after_ms`, the
 * longest pause a shared budget keeps). A job that would run later than that is brought forward
 * to `delayMs` from now (the request's own delay: 0, or a PIM event window's quiet gap); its
 * next run then meets the upstream again, and a still-long `Retry-After` delays it by at most
 * the cap (run-job-with-policy.ts). Bringing it forward rather than queueing a second job keeps
 * one waiting job per project (decision 0005).
 *
 * Returns when the job runs while it still waits for a retry (the request's answer says so),
 * or null when it does not wait for one (a first run, or it has left the delayed set).
 */
export async function joinRetryWait(
  queue: Queue,
  job: Job,
  timing: { readonly capMs: number; readonly delayMs: number },
): Promise<number | null> {
  if (job.id === undefined || job.attemptsStarted === 0) return null;
  const runsAt = await delayedJobRunsAt(queue, job.id);
  if (runsAt === null) return null;
  const now = Date.now();
  if (runsAt <= now + timing.capMs) return runsAt;
  try {
    await job.changeDelay(timing.delayMs);
  } catch (error) {
    // It left the delayed set meanwhile: it starts now, after the request's data was written.
    if ((await job.getState()) === "delayed") throw error;
    return null;
  }
  return timing.delayMs === 0 ? null : now + timing.delayMs;
}
