import { createHash } from "node:crypto";
import { Queue, type JobsOptions } from "bullmq";
import type { Redis } from "ioredis";
import { canonicalJson } from "./canonical-json.js";
import { enqueueSync } from "./enqueue-sync.js";
import { claimIdempotencyKey, confirmIdempotencyKey } from "./idempotency-keys.js";
import { IdempotencyKeyConflict } from "./idempotency-key-conflict.js";
import { parseJobData, type JobInput, type JobName } from "./job-catalog.js";
import { jobOptionsFor, type JobRetention } from "./job-options.js";
import { queueNameOf } from "./queue-names.js";

export interface EnqueuedJob {
  readonly project: number;
  /** The job that carries out the request; for `follows-running`, the running job it follows. */
  readonly jobId: string;
  /**
   * - `queued`: a new job.
   * - `merged`: a sync was already waiting; this request joined it (its `full` and
   *   `allow_mass_delete` were written into that job before it started).
   * - `follows-running`: a sync is running; BullMQ starts one more when it ends, with the data
   *   of the latest such request and the `full`/`allow_mass_delete` of every one of them.
   * - `duplicate`: the same Idempotency-Key with the same body was seen before; nothing new was
   *   queued (even if that job has been removed since). The same key with another body throws
   *   IdempotencyKeyConflict.
   */
  readonly status: "queued" | "merged" | "follows-running" | "duplicate";
}

export interface JobQueues {
  queueFor(project: number): Queue;
  readonly projects: readonly number[];
  /** Input is parsed against the job catalog (JobInput<"sync.run"> when typed); JobDataError if wrong. */
  enqueueSync(input: JobInput<"sync.run"> | Readonly<Record<string, unknown>>): Promise<EnqueuedJob>;
  enqueueAddOptions(input: JobInput<"options.add"> | Readonly<Record<string, unknown>>, options?: { readonly idempotencyKey?: string | undefined }): Promise<EnqueuedJob>;
  /** One job at a time per project queue, across every worker (see queue-names.ts). */
  enforceOneJobPerProject(): Promise<void>;
  close(): Promise<void>;
}

/** Queues of the configured projects. Every job's data is validated here, before it is stored. */
export function createJobQueues(args: {
  readonly connection: Redis;
  readonly prefix: string;
  readonly projects: readonly number[];
  readonly retention: JobRetention;
}): JobQueues {
  const queues = new Map<number, Queue>();
  for (const project of args.projects) {
    queues.set(project, new Queue(queueNameOf(project), { connection: args.connection, prefix: args.prefix }));
  }

  function queueFor(project: number): Queue {
    const queue = queues.get(project);
    if (!queue) throw new Error(`project ${project} is not configured`);
    return queue;
  }

  const baseOptions = (name: JobName): JobsOptions => jobOptionsFor(name, args.retention);
  // A key outlives its job's retention: a redelivery after the job was removed is still a duplicate.
  const idempotencyKeySeconds = Math.max(args.retention.keep_completed_days, args.retention.keep_failed_days) * 86_400;

  return {
    queueFor,
    projects: args.projects,
    async enqueueSync(input) {
      const data = parseJobData("sync.run", input);
      const queued = await enqueueSync({ queue: queueFor(data.project), redis: args.connection, prefix: args.prefix, data, options: baseOptions("sync.run") });
      return { project: data.project, ...queued };
    },
    async enqueueAddOptions(input, options = {}) {
      const data = parseJobData("options.add", input);
      const queue = queueFor(data.project);
      if (options.idempotencyKey === undefined) {
        const job = await queue.add("options.add", data, baseOptions("options.add"));
        return { project: data.project, jobId: job.id ?? "", status: "queued" };
      }
      // One Idempotency-Key, one job: the key is claimed with the body's hash before the job is
      // added, and the job id derives from the key (see idempotency-keys.ts).
      const digest = createHash("sha256").update(options.idempotencyKey).digest("hex").slice(0, 32);
      const key = `${args.prefix}:idempotency:${data.project}:${digest}`;
      const claim = await claimIdempotencyKey(args.connection, key, {
        bodyHash: createHash("sha256").update(canonicalJson(data)).digest("hex"),
        jobId: `add-${digest}`,
        ttlSeconds: idempotencyKeySeconds,
      });
      if (claim.outcome === "conflict") throw new IdempotencyKeyConflict(data.project, claim.jobId);
      if (claim.outcome === "duplicate") return { project: data.project, jobId: claim.jobId, status: "duplicate" };
      // BullMQ never adds a job id twice: concurrent deliveries that both claimed make one job.
      const job = await queue.add("options.add", data, { ...baseOptions("options.add"), jobId: claim.jobId });
      const first = await confirmIdempotencyKey(args.connection, key);
      return { project: data.project, jobId: job.id ?? claim.jobId, status: first ? "queued" : "duplicate" };
    },
    async enforceOneJobPerProject() {
      await Promise.all([...queues.values()].map((queue) => queue.setGlobalConcurrency(1)));
    },
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}
