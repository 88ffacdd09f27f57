import type { Job } from "bullmq";
import { createJobQueues, type JobQueues } from "../../src/jobs/queues/job-queues.js";
import type { ConfigServiceSimulator } from "../../sim/config-service/config-service-simulator.js";
import { waitFor } from "./wait-for.js";
import type { TestRedis } from "./redis.js";
import { PROJECT, startSyncHarness } from "./sync-harness.js";

/** The project queues under the test's prefix, on the test's Redis connection (not closed by `close()`). */
export function openTestQueues(redis: TestRedis, projects: readonly number[] = [PROJECT]): JobQueues {
  return createJobQueues({
    connection: redis.redis,
    prefix: redis.prefix,
    projects,
    retention: { keep_completed_days: 7, keep_failed_days: 30 },
  });
}

/** Polls until the job is in `state` (failing early, with its reason, if it fails when it should not). */
export async function waitForJobState(queues: JobQueues, project: number, jobId: string, state: string, timeoutMs: number): Promise<Job> {
  return waitFor(
    async () => {
      // State first, job after: a job read before it finished would lack its result.
      const current = await queues.queueFor(project).getJobState(jobId);
      const job = await queues.queueFor(project).getJob(jobId);
      if (!job) return undefined;
      if (current === state) return job;
      if (current === "failed" && state !== "failed") throw new Error(`job ${project}/${jobId} failed: ${job.failedReason}`);
      return undefined;
    },
    { timeoutMs, intervalMs: 100, what: `job ${project}/${jobId} to be ${state}` },
  );
}

/** Every job of every state in a project queue. */
export async function allJobs(queues: JobQueues, project: number = PROJECT): Promise<Job[]> {
  return queues
    .queueFor(project)
    .getJobs(["waiting", "active", "completed", "failed", "delayed", "prioritized", "waiting-children"], 0, -1);
}

export type CollectionsByName = Record<string, { name: string; label: Record<string, string> }[]>;

/** A project's collections in the service simulator, options sorted by name: order-insensitive. */
export function collectionsOf(service: ConfigServiceSimulator, project: number = PROJECT): CollectionsByName {
  const out: CollectionsByName = {};
  for (const collection of service
    .collections()
    .filter((c) => c.project === project)
    .sort((a, b) => a.id - b.id)) {
    out[collection.name] = collection.options
      .map((option) => ({ name: option.name, label: { ...option.label } }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  return out;
}

/**
 * What the service holds after one clean sync of the sample catalogue: a sync into a fresh pair
 * of simulators (and a fresh Redis prefix), as the reference a recovered or interrupted run
 * must end at.
 */
export async function cleanSyncEndState(): Promise<{ readonly collections: CollectionsByName; readonly otherProject: CollectionsByName }> {
  const harness = await startSyncHarness();
  try {
    const report = await harness.sync();
    if (report.failures.length > 0) throw new Error(`the reference sync failed: ${report.failures.join("; ")}`);
    return { collections: collectionsOf(harness.service), otherProject: collectionsOf(harness.service, 99) };
  } finally {
    await harness.close();
  }
}
