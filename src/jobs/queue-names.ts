/**
 * One BullMQ queue per project, with a global concurrency of 1: a project's sync and its
 * add-options jobs run one at a time across every worker process, which is what guarantees they
 * never interleave. Projects run in parallel.
 */
export function queueNameOf(project: number): string {
  return `project-${project}`;
}

/** Sync jobs of a project share one deduplication id: one running, at most one more waiting. */
export function syncDeduplicationId(project: number): string {
  return `sync-${project}`;
}

export const SYNC_SCHEDULER_ID = "sync-schedule";
