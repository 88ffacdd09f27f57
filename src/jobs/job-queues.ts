import { createHash } from "node:crypto";
import { Queue, type JobsOptions } from "bullmq";
import type { Redis } from "ioredis";
import type { WorkerSettings } from "../settings/settings-schema.js";
import { JOB_CATALOG, parseJobData, type JobInput, type JobName } from "./job-catalog.js";
import { queueNameOf, syncDeduplicationId } from "./queue-names.js";

export interface EnqueuedJob {
  readonly project: number;
  readonly jobId: string;
  /** An earlier job stands for this request (same idempotency key, or a sync already waiting). */
  readonly duplicate: boolean;
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

const DAY_SECONDS = 86_400;

/** Queues of the configured projects. Every job's data is validated here, before it is stored. */
export function createJobQueues(args: {
  readonly connection: Redis;
  readonly prefix: string;
  readonly projects: readonly number[];
  readonly retention: Pick<WorkerSettings, "keep_completed_days" | "keep_failed_days">;
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

  function baseOptions(name: JobName): JobsOptions {
    const entry = JOB_CATALOG[name];
    return {
      attempts: entry.attempts,
      backoff: { ...entry.backoff },
      removeOnComplete: { age: args.retention.keep_completed_days * DAY_SECONDS, count: 1000 },
      removeOnFail: { age: args.retention.keep_failed_days * DAY_SECONDS },
    };
  }

  return {
    queueFor,
    projects: args.projects,
    async enqueueSync(input) {
      const data = parseJobData("sync.run", input);
      const queue = queueFor(data.project);
      const dedupId = syncDeduplicationId(data.project);
      const waitingBefore = await queue.getDeduplicationJobId(dedupId);
      const job = await queue.add("sync.run", data, { ...baseOptions("sync.run"), deduplication: { id: dedupId, keepLastIfActive: true } });
      const jobId = job.id ?? "";
      return { project: data.project, jobId, duplicate: jobId === waitingBefore };
    },
    async enqueueAddOptions(input, options = {}) {
      const data = parseJobData("options.add", input);
      const queue = queueFor(data.project);
      // Repeated deliveries with one Idempotency-Key become one job (for as long as it is kept).
      const jobId = options.idempotencyKey === undefined ? undefined : `add-${createHash("sha256").update(options.idempotencyKey).digest("hex").slice(0, 32)}`;
      const existing = jobId === undefined ? undefined : await queue.getJob(jobId);
      if (existing) return { project: data.project, jobId: existing.id ?? "", duplicate: true };
      const job = await queue.add("options.add", data, { ...baseOptions("options.add"), jobId });
      return { project: data.project, jobId: job.id ?? "", duplicate: false };
    },
    async enforceOneJobPerProject() {
      await Promise.all([...queues.values()].map((queue) => queue.setGlobalConcurrency(1)));
    },
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}
