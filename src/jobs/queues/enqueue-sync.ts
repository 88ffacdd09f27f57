import type { Job, JobsOptions, Queue } from "bullmq";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import { z } from "zod";
import type { Keyspace } from "../../infra/redis/keyspace.js";
import { parseJobData, type JobData } from "../catalog/job-catalog.js";
import { syncDeduplicationId } from "../../infra/redis/queue-names.js";
import { withRedisLock } from "./redis-lock.js";
import { joinRetryWait } from "./join-retry-wait.js";

/** States in which a job has not started yet: data written now is the data its run reads. */
const NOT_STARTED = new Set(["waiting", "delayed", "prioritized"]);
const LOCK_TIMING = { ttlMs: 10_000, waitMs: 10_000 } as const;
/** Each round sees a worker move the sync on by one step; a few rounds always settle. */
const MAX_ROUNDS = 8;
const FOLLOW_UP_RECORD_SECONDS = 86_400;

export interface SyncEnqueued {
  readonly jobId: string;
  readonly status: "queued" | "merged" | "delayed" | "follows-running";
  /** With `delayed`: when the job waiting for its retry runs (epoch ms). */
  readonly runsAt?: number;
}

const followUpRecordSchema = z.object({ job: z.string(), full: z.boolean(), allow_mass_delete: z.boolean() });

type SyncData = JobData<"sync.run">;

function strongest(base: SyncData, request: SyncData): SyncData {
  return { ...base, full: base.full || request.full, allow_mass_delete: base.allow_mass_delete || request.allow_mass_delete };
}

function covers(carried: SyncData, request: SyncData): boolean {
  return (carried.full || !request.full) && (carried.allow_mass_delete || !request.allow_mass_delete);
}

/**
 * Queues a sync of one project, or joins the one already waiting, without ever losing the
 * request's `full`/`allow_mass_delete`.
 *
 * Why this design: BullMQ's deduplication (one id per project, `keepLastIfActive`) keeps at
 * most one sync waiting, but it drops the data of a request that finds a job waiting, and its
 * follow-up of a running job keeps only the latest request's data. Merging the options into the
 * waiting job is a read, then a write, and a worker may start the job in between. Rather than a
 * Lua script over BullMQ's internal keys (which change between versions), this uses only
 * BullMQ's public calls plus two facts:
 * - a per-project Redis lock serializes the producers, so no two requests merge at once; the
 *   workers do not take it, which is why the next point is needed;
 * - a worker moves a job to active and reads its data in one Redis script, so a job still
 *   waiting AFTER the data was written will run with that data. The state is therefore checked
 *   again after the write; if the job started meanwhile, the request is not answered `merged`
 *   but goes round again, where it finds the job running and becomes its follow-up.
 * The follow-up's options are kept in a record of ours (under the lock) and combined with each
 * later request for the same running job, since BullMQ replaces the follow-up's data. Every
 * answer names a job that had not started when the request's options were written to it, or
 * whose data already holds them.
 * A waiting job that is waiting for a retry is joined the same way, but a request never waits
 * for it longer than `retryWaitCapMs`: one due later is brought forward (join-retry-wait.ts), and
 * one due within the cap is answered `delayed` with the time it runs.
 */
export async function enqueueSync(args: {
  readonly queue: Queue;
  readonly redis: RedisClient;
  readonly keyspace: Keyspace;
  readonly data: SyncData;
  readonly options: JobsOptions;
  /** `http.max_retry_after_ms` (see join-retry-wait.ts). */
  readonly retryWaitCapMs: number;
}): Promise<SyncEnqueued> {
  const { queue, data } = args;
  const dedupId = syncDeduplicationId(data.project);
  const lockKey = args.keyspace.projectKey(data.project, "lock:enqueue-sync");
  const followUpKey = args.keyspace.projectKey(data.project, "sync-follow-up");

  async function followUpOf(runningId: string): Promise<SyncData> {
    const raw = await args.redis.get(followUpKey);
    let record;
    try {
      record = raw === null ? undefined : followUpRecordSchema.safeParse(JSON.parse(raw));
    } catch {
      record = undefined; // not ours or damaged: start a new record
    }
    if (!record?.success || record.data.job !== runningId) return data;
    return strongest(data, { ...data, full: record.data.full, allow_mass_delete: record.data.allow_mass_delete });
  }

  /** The answer for a request carried by a job that has not started, its data already written. */
  async function joined(job: Job & { id: string }): Promise<SyncEnqueued> {
    const runsAt = await joinRetryWait(queue, job, { capMs: args.retryWaitCapMs, delayMs: args.options.delay ?? 0 });
    return runsAt === null ? { jobId: job.id, status: "merged" } : { jobId: job.id, status: "delayed", runsAt };
  }

  return withRedisLock(args.redis, lockKey, LOCK_TIMING, async () => {
    for (let round = 1; round <= MAX_ROUNDS; round += 1) {
      const existingId = await queue.getDeduplicationJobId(dedupId);
      const existing = existingId ? await queue.getJob(existingId) : undefined;
      const state = existing ? await existing.getState() : undefined;

      if (existing?.id !== undefined && state !== undefined && NOT_STARTED.has(state)) {
        const waiting = parseJobData("sync.run", existing.data);
        // Already as strong: whenever it starts, it starts after this request, with its options.
        if (covers(waiting, data)) return joined(existing as Job & { id: string });
        let writeError: unknown;
        await existing.updateData(strongest(waiting, data)).catch((error: unknown) => (writeError = error));
        // Checked after the write: still not started means its run reads the merged data.
        if (NOT_STARTED.has(await queue.getJobState(existing.id))) {
          if (writeError !== undefined) throw writeError instanceof Error ? writeError : new Error(String(writeError));
          return joined(existing as Job & { id: string });
        }
        continue;
      }

      const running = existing?.id !== undefined && state === "active" ? existing.id : undefined;
      const request = running === undefined ? data : await followUpOf(running);
      const job = await queue.add("sync.run", request, { ...args.options, deduplication: { id: dedupId, keepLastIfActive: true } });
      if (running !== undefined && job.id === running) {
        // Still running when BullMQ stored the follow-up: it runs when this job ends.
        await args.redis.set(
          followUpKey,
          JSON.stringify({ job: running, full: request.full, allow_mass_delete: request.allow_mass_delete }),
          "EX",
          FOLLOW_UP_RECORD_SECONDS,
        );
        return { jobId: running, status: "follows-running" };
      }
      // A new job, or the follow-up BullMQ created when the running job just ended (holding an
      // earlier request): accepted only if its data carries this request.
      const added = job.id === undefined ? undefined : await queue.getJob(job.id);
      if (added?.id !== undefined && covers(parseJobData("sync.run", added.data), data)) return { jobId: added.id, status: "queued" };
    }
    throw new Error(`could not queue a sync of project ${data.project}: its queue kept changing; try again`);
  });
}
