import type { Worker } from "bullmq";
import type { Logger } from "pino";
import type { JobFinalStatusStore } from "./job-final-status-store.js";

/**
 * Records each job of a project's worker that ends for good: every completion, and a failure
 * that left the job failed (not one BullMQ will retry). A record that cannot be written is
 * logged and given up: the job itself still answers until its retention removes it.
 */
export function recordFinalStatuses(worker: Worker, project: number, store: JobFinalStatusStore, logger: Logger): void {
  const failedToRecord =
    (jobId: string | undefined) =>
    (error: unknown): void => {
      logger.warn({ project, job: jobId, err: error }, "could not record the job's final status");
    };
  worker.on("completed", (job) => {
    store.record(project, job, "completed").catch(failedToRecord(job.id));
  });
  worker.on("failed", (job) => {
    if (!job) return;
    // The event comes for every failed attempt; only the job's state tells a retry from the end.
    job
      .getState()
      .then((state) => (state === "failed" ? store.record(project, job, "failed") : undefined))
      .catch(failedToRecord(job.id));
  });
}
