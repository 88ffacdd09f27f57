import type { Job } from "bullmq";
import { z } from "zod";
import type { Keyspace } from "../../infra/redis/keyspace.js";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import { coalesceTurnWrites } from "../../infra/redis/coalesce-turn-writes.js";

/** What a poller of `GET /v1/jobs` needs once a job has ended for good: no data, stacks or logs. */
const jobFinalStatusSchema = z.object({
  ref: z.string(),
  name: z.string(),
  state: z.enum(["completed", "failed"]),
  attemptsMade: z.number().int().nonnegative(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  result: z.unknown(),
  failedReason: z.string().nullable(),
});
export type JobFinalStatus = z.infer<typeof jobFinalStatusSchema>;

export interface JobFinalStatusStore {
  /** Records how a project's job ended (completed, or failed with no attempt left). */
  record(project: number, job: Job, state: JobFinalStatus["state"]): Promise<void>;
  /** The recorded end of a job, or null (never ended, or older than the window). */
  read(project: number, jobId: string): Promise<JobFinalStatus | null>;
}

/**
 * One compact record per ended project job, kept for `ttlSeconds` (the idempotency window), so
 * a job's outcome outlives BullMQ's retention (at most 1,000 completed jobs per project are kept:
 * a burst removes them within seconds). Keys go through the keyspace: on a cluster they share the
 * project's hash tag. A later end of the same job (a replayed failure) replaces the record.
 */
export function createJobFinalStatusStore(redis: RedisClient, keyspace: Keyspace, ttlSeconds: number): JobFinalStatusStore {
  const keyOf = (project: number, jobId: string): string => keyspace.projectKey(project, "job-status", jobId);
  // The record leaves with the next job's completion, in one socket write (see coalesce-turn-writes.ts).
  const holdWrites = coalesceTurnWrites(redis);
  return {
    async record(project, job, state) {
      const status: JobFinalStatus = {
        ref: `${project}/${job.id ?? ""}`,
        name: job.name,
        state,
        attemptsMade: job.attemptsMade,
        createdAt: new Date(job.timestamp).toISOString(),
        finishedAt: new Date(job.finishedOn ?? Date.now()).toISOString(),
        result: state === "completed" ? ((job.returnvalue as unknown) ?? null) : null,
        failedReason: state === "failed" ? job.failedReason || null : null,
      };
      holdWrites();
      await redis.set(keyOf(project, job.id ?? ""), JSON.stringify(status), "EX", ttlSeconds);
    },
    async read(project, jobId) {
      const text = await redis.get(keyOf(project, jobId));
      if (text === null) return null;
      // A record this version cannot read is treated as absent (a 404), never as a 500.
      const parsed = jobFinalStatusSchema.safeParse(JSON.parse(text) as unknown);
      return parsed.success ? parsed.data : null;
    },
  };
}
