import type { Worker } from "bullmq";
import type { Logger } from "pino";
import type { JobCatalog } from "../catalog/job-catalog-of.js";
import type { JobFinalStatusStore } from "../admin/job-final-status-store.js";

/**
 * Records each job of a project's worker that ends for good: every completion (of a job whose
 * catalog entry does not say `recordsCompletion: false`), and a failure that left the job failed
 * (not one BullMQ will retry). A record that cannot be written is logged and given up: the job
 * itself still answers until its retention removes it.
 */
export function recordFinalStatuses(
  worker: Worker,
  project: number,
  store: JobFinalStatusStore,
  catalog: JobCatalog,
  logger: Logger,
): void {
  // An unknown name (a job of another version) is recorded: the record is what answers for it.
  const recordsCompletion = (name: string): boolean => !catalog.has(name) || catalog.entry(name).recordsCompletion !== false;
  const failedToRecord =
    (jobId: string | undefined) =>
    (error: unknown): void => {
      logger.warn({ project, job: jobId, err: error }, "could not record the job's final status");
    };
  worker.on("completed", (job) => {
    if (!recordsCompletion(job.name)) return;
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
