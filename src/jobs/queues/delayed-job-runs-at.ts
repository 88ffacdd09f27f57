import type { Queue } from "bullmq";

/**
 * BullMQ's delayed set scores a job by the time it runs, in ms, times 4096 (the low 12 bits keep
 * jobs of one millisecond in order: `getDelayedScore` in its scripts).
 */
const SCORE_PER_MS = 0x1000;

/**
 * When a delayed job runs (epoch ms), or null when it is not in the delayed set. BullMQ keeps
 * only a job's `delay`, not from when it counts (a retry's delay counts from its failure), so the
 * time is read where BullMQ itself reads it: the job's score in the queue's delayed set.
 * test/integration/jobs/worker/retry-wait-join.test.ts reads it back from a real queue.
 */
export async function delayedJobRunsAt(queue: Queue, jobId: string): Promise<number | null> {
  const client = await queue.getBackend().client;
  const score = await client.zscore(queue.toKey("delayed"), jobId);
  return score === null ? null : Math.floor(Number(score) / SCORE_PER_MS);
}
