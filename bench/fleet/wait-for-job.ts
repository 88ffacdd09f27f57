/**
 * Waits for one BullMQ job to finish and reads its own times (enqueued, started, finished):
 * latencies come from BullMQ's timestamps, not from when this poll noticed.
 */
import type { Queue } from "bullmq";
import { setTimeout as sleep } from "node:timers/promises";

const POLL_MS = 25;

export interface FinishedJob {
  readonly timestamp: number;
  readonly processedOn: number | null;
  readonly finishedOn: number;
}

export async function waitForJob(queue: Queue, jobId: string, timeoutMs: number): Promise<FinishedJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await queue.getJob(jobId);
    if (job === undefined) throw new Error(`job ${jobId} of ${queue.name} is gone`);
    if (job.finishedOn !== undefined) {
      if (job.failedReason) throw new Error(`job ${jobId} of ${queue.name} failed: ${job.failedReason}`);
      return { timestamp: job.timestamp, processedOn: job.processedOn ?? null, finishedOn: job.finishedOn };
    }
    if (Date.now() > deadline) throw new Error(`job ${jobId} of ${queue.name} did not finish within ${timeoutMs} ms`);
    await sleep(POLL_MS);
  }
}
