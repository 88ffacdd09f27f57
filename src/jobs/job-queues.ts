import { createHash } from "node:crypto";
import { Queue, type JobsOptions } from "bullmq";
import type { Redis } from "ioredis";
import type { WorkerSettings } from "../settings/settings-schema.js";
import { JOB_CATALOG, parseJobData, type JobInput, type JobName } from "./job-catalog.js";
import { queueNameOf, syncDeduplicationId } from "./queue-names.js";

export interface EnqueuedJob {
  readonly project: number;
  /** The job that carries out the request; for `follows-running`, the running job it follows. */
  readonly jobId: string;
  /**
   * - `queued`: a new job.
   * - `merged`: a sync was already waiting; this request joined it (its `full` and
   *   `allow_mass_delete` are kept if set).
   * - `follows-running`: a sync is running; BullMQ starts one more when it ends, with the data
   *   of the latest such request.
   * - `duplicate`: the same Idempotency-Key was seen before; nothing new was queued.
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

const DAY_SECONDS = 86_400;

/** Queues of the configured projects. Every job's data is validated here, before it is stored. */
export function createJobQueues(args: {
  readonly connection: Redis;
  readonly prefix: string;
  readonly projects: readonly number[];
  readonly retention: Pick<WorkerSettings, "keep_completed_days" | "keep_failed_days">;
  /** Connection errors of the queues (without a listener BullMQ prints them with console.error). */
  readonly onError?: (error: Error) => void;
}): JobQueues {
  const queues = new Map<number, Queue>();
  for (const project of args.projects) {
    const queue = new Queue(queueNameOf(project), { connection: args.connection, prefix: args.prefix });
    // The commands waiting on Redis see the failure themselves; this only keeps it off the console.
    queue.on("error", (error) => args.onError?.(error));
    queues.set(project, queue);
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
      const existingId = await queue.getDeduplicationJobId(dedupId);
      const existing = existingId ? await queue.getJob(existingId) : undefined;
      const existingState = existing ? await existing.getState() : undefined;
      if (existing && (existingState === "waiting" || existingState === "delayed" || existingState === "prioritized")) {
        // A request must not lose its options by being merged: keep the stronger ones.
        const waiting = parseJobData("sync.run", existing.data);
        const merged = { ...waiting, full: waiting.full || data.full, allow_mass_delete: waiting.allow_mass_delete || data.allow_mass_delete };
        if (merged.full !== waiting.full || merged.allow_mass_delete !== waiting.allow_mass_delete) await existing.updateData(merged);
        return { project: data.project, jobId: existing.id ?? "", status: "merged" };
      }
      const job = await queue.add("sync.run", data, { ...baseOptions("sync.run"), deduplication: { id: dedupId, keepLastIfActive: true } });
      if (existing && existingState === "active") return { project: data.project, jobId: existing.id ?? "", status: "follows-running" };
      return { project: data.project, jobId: job.id ?? "", status: "queued" };
    },
    async enqueueAddOptions(input, options = {}) {
      const data = parseJobData("options.add", input);
      const queue = queueFor(data.project);
      if (options.idempotencyKey === undefined) {
        const job = await queue.add("options.add", data, baseOptions("options.add"));
        return { project: data.project, jobId: job.id ?? "", status: "queued" };
      }
      // Repeated deliveries with one Idempotency-Key become one job: the key is claimed
      // atomically (SET NX) for as long as completed jobs are kept, and the job id derives from it.
      const digest = createHash("sha256").update(options.idempotencyKey).digest("hex").slice(0, 32);
      const jobId = `add-${digest}`;
      const claimed = await args.connection.set(`${args.prefix}:idempotency:${data.project}:${digest}`, jobId, "EX", args.retention.keep_completed_days * DAY_SECONDS, "NX");
      const job = await queue.add("options.add", data, { ...baseOptions("options.add"), jobId });
      return { project: data.project, jobId: job.id ?? jobId, status: claimed === "OK" ? "queued" : "duplicate" };
    },
    async enforceOneJobPerProject() {
      await Promise.all([...queues.values()].map((queue) => queue.setGlobalConcurrency(1)));
    },
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}
