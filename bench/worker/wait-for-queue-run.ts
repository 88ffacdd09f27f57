/**
 * Waits for a run of jobs to finish and times it from the queue's event stream.
 *
 * While the jobs run, the benchmark only polls the queue's counts every 100 ms (one Redis call):
 * following the event stream live (QueueEvents) would spend the benchmark process's CPU on
 * parsing thousands of events, in the process that runs the worker being measured. Once the
 * queue is drained, the run's part of the stream is read in one XRANGE and summarised (times
 * on the Redis clock, see queue-run-summary.ts).
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { summarizeQueueRun, type QueueRunSummary, type QueueStreamEvent } from "./queue-run-summary.js";

const POLL_MS = 100;
const PROGRESS_MS = 10_000;
const PENDING_STATES = ["waiting", "active", "delayed", "prioritized", "waiting-children"] as const;

/** Where a run starts in the queue's event stream: call before adding its jobs. */
export async function streamPosition(redis: Redis, queue: Queue): Promise<string> {
  const [newest] = await redis.xrevrange(eventsKey(queue), "+", "-", "COUNT", 1);
  return newest?.[0] ?? "0-0";
}

/**
 * Resolves with the run's summary once no job is pending any more and `jobs` jobs completed
 * since `after`; rejects as soon as a job fails for good, after `timeoutMs`, or when the stream
 * no longer holds the whole run (BullMQ trims it to about 10,000 events).
 */
export async function waitForQueueRun(args: {
  readonly redis: Redis;
  readonly queue: Queue;
  readonly after: string;
  readonly jobs: number;
  readonly timeoutMs: number;
  readonly onProgress?: (pending: number) => void;
}): Promise<QueueRunSummary> {
  const { queue, jobs } = args;
  const startedAt = Date.now();
  let reportedAt = startedAt;
  for (;;) {
    const counts = await queue.getJobCounts(...PENDING_STATES, "failed");
    if ((counts.failed ?? 0) > 0) {
      const [job] = await queue.getFailed(0, 0);
      throw new Error(`${queue.name}: ${counts.failed} job(s) failed, e.g. ${job?.id} (${job?.name}): ${job?.failedReason}`);
    }
    const pending = PENDING_STATES.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
    if (pending === 0) break;
    const now = Date.now();
    if (now - startedAt > args.timeoutMs)
      throw new Error(`${queue.name}: ${pending} of ${jobs} jobs still pending after ${Math.round(args.timeoutMs / 1000)} s`);
    if (args.onProgress && now - reportedAt >= PROGRESS_MS) {
      reportedAt = now;
      args.onProgress(pending);
    }
    await sleep(POLL_MS);
  }
  const summary = summarizeQueueRun(await readStream(args.redis, eventsKey(queue), args.after));
  if (summary.added !== jobs || summary.completed !== jobs || summary.failed > 0) {
    throw new Error(
      `${queue.name}: the event stream shows ${summary.added} added, ${summary.completed} completed, ${summary.failed} failed of ${jobs} jobs (trimmed, or jobs lost)`,
    );
  }
  return summary;
}

async function readStream(redis: Redis, key: string, after: string): Promise<QueueStreamEvent[]> {
  const entries = await redis.xrange(key, after, "+");
  const events: QueueStreamEvent[] = [];
  for (const [id, fields] of entries) {
    if (id === after) continue;
    const field: Record<string, string> = {};
    for (let i = 0; i + 1 < fields.length; i += 2) field[fields[i] as string] = fields[i + 1] as string;
    events.push({ id, event: field.event ?? "", jobId: field.jobId, prev: field.prev });
  }
  return events;
}

function eventsKey(queue: Queue): string {
  const key = queue.keys.events;
  if (key === undefined) throw new Error(`${queue.name}: no events key`);
  return key;
}
