import type { JobsOptions, Queue } from "bullmq";
import type { Keyspace } from "../../infra/redis/keyspace.js";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import type { AnyJobDefinition } from "../catalog/define-job.js";
import { enqueueSync } from "./enqueue-sync.js";
import { addJobOnce } from "./idempotency-keys.js";
import type { JobData } from "../catalog/job-catalog.js";
import { quietDelayMs } from "./quiet-delay.js";
import { joinRetryWait } from "./join-retry-wait.js";

/**
 * - `queued`: a new job.
 * - `merged`: a job was already waiting; this request joined it.
 * - `follows-running`: one is running; BullMQ starts one more when it ends.
 * - `delayed`: a job was already waiting for a retry (an upstream's `Retry-After`, a backoff);
 *   this request joined it, and it runs at `runsAt` (at most `http.max_retry_after_ms` from now:
 *   one due later is brought forward, see join-retry-wait.ts).
 * - `duplicate`: the same Idempotency-Key with the same body was seen before; nothing new was
 *   queued (even if that job has been removed since). The same key with another body throws
 *   IdempotencyKeyConflict.
 */
export type EnqueueStatus = "queued" | "merged" | "delayed" | "follows-running" | "duplicate";

/** How a request was carried out; `runsAt` (epoch ms) only with `delayed`. */
export interface Enqueued {
  readonly jobId: string;
  readonly status: EnqueueStatus;
  readonly runsAt?: number;
}

/** Where a job goes: its queue, and how this kind of queue keeps Idempotency-Keys and names jobs. */
export interface EnqueueTarget {
  readonly queue: Queue;
  readonly redis: RedisClient;
  readonly keyspace: Keyspace;
  /** The Redis key of an Idempotency-Key's digest (see src/infra/redis/keyspace.ts). */
  idempotencyKeyOf(jobName: string, digest: string): string;
  /** How `jobs list` names a job of this queue. */
  refOf(jobId: string): string;
  readonly idempotencyTtlSeconds: number;
  /** `http.max_retry_after_ms`: a request never waits longer than this for a job's retry (join-retry-wait.ts). */
  readonly retryWaitCapMs: number;
}

export interface EnqueueRequest {
  /** Makes repeated deliveries one job (`each` jobs only). */
  readonly idempotencyKey?: string | undefined;
  /** Run no sooner than this from now. */
  readonly delayMs?: number | undefined;
  /**
   * Makes `delayMs` a quiet gap (`one-waiting` jobs): a request joining a job still delayed
   * moves its start to `delayMs` from now, but never later than this long after that job was
   * queued. Without it a joined job keeps its start.
   */
  readonly quietUpToMs?: number | undefined;
}

/** States in which a job has not started yet. */
const NOT_STARTED = new Set(["waiting", "delayed", "prioritized"]);

/**
 * The one way a job is queued, for every job of the catalog: its data is already parsed; the
 * entry's `enqueue` policy decides between a new job, joining the one waiting, or following the
 * running one (see define-job.ts).
 */
export async function enqueueJob(
  entry: AnyJobDefinition,
  data: unknown,
  target: EnqueueTarget,
  options: JobsOptions,
  request: EnqueueRequest = {},
): Promise<Enqueued> {
  const policy = entry.enqueue ?? { kind: "each" };
  const { queue } = target;
  const delayed = request.delayMs === undefined ? options : { ...options, delay: request.delayMs };
  if (policy.kind !== "each" && request.idempotencyKey !== undefined)
    throw new Error(`${entry.name} jobs take no Idempotency-Key: their enqueue policy is ${policy.kind}`);
  switch (policy.kind) {
    case "merge-sync":
      return enqueueSync({
        queue,
        redis: target.redis,
        keyspace: target.keyspace,
        data: data as JobData<"sync.run">,
        options: delayed,
        retryWaitCapMs: target.retryWaitCapMs,
      });
    case "one-waiting": {
      const deduplicationId = policy.deduplicationId(data as never);
      const existingId = await queue.getDeduplicationJobId(deduplicationId);
      const existing = existingId ? await queue.getJob(existingId) : undefined;
      const state = existing ? await existing.getState() : undefined;
      if (existing && state !== undefined && NOT_STARTED.has(state)) {
        // Waiting for a retry: joined, but never for longer than the cap.
        if (existing.attemptsStarted > 0) {
          const runsAt = await joinRetryWait(queue, existing, { capMs: target.retryWaitCapMs, delayMs: request.delayMs ?? 0 });
          return runsAt === null ? { jobId: existing.id ?? "", status: "merged" } : { jobId: existing.id ?? "", status: "delayed", runsAt };
        }
        // Only the first attempt's delay: a retry's delay is its backoff, not a window.
        if (state === "delayed" && request.quietUpToMs !== undefined) {
          const delay = quietDelayMs({
            now: Date.now(),
            queuedAt: existing.timestamp,
            quietMs: request.delayMs ?? 0,
            maxMs: request.quietUpToMs,
          });
          try {
            await existing.changeDelay(delay);
          } catch (error) {
            // It left the delayed set meanwhile: it starts now, after this request's data was
            // stored, so it carries the request all the same.
            if ((await existing.getState()) === "delayed") throw error;
          }
        }
        return { jobId: existing.id ?? "", status: "merged" };
      }
      const job = await queue.add(entry.name, data, { ...delayed, deduplication: { id: deduplicationId, keepLastIfActive: true } });
      if (existing && state === "active") return { jobId: existing.id ?? "", status: "follows-running" };
      return { jobId: job.id ?? "", status: "queued" };
    }
    case "each": {
      if (request.idempotencyKey === undefined) {
        const job = await queue.add(entry.name, data, delayed);
        return { jobId: job.id ?? "", status: "queued" };
      }
      // One Idempotency-Key, one job (see idempotency-keys.ts).
      return addJobOnce({
        redis: target.redis,
        keyOf: (digest) => target.idempotencyKeyOf(entry.name, digest),
        idempotencyKey: request.idempotencyKey,
        queue,
        name: entry.name,
        data,
        options: delayed,
        jobIdPrefix: policy.idempotentJobIdPrefix ?? "job-",
        ttlSeconds: target.idempotencyTtlSeconds,
        refOf: (jobId) => target.refOf(jobId),
      });
    }
  }
}
