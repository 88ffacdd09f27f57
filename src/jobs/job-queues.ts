import { Queue, type JobsOptions } from "bullmq";
import type { RedisClient } from "../redis/redis-client.js";
import { enqueueSync } from "./enqueue-sync.js";
import { addJobOnce } from "./idempotency-keys.js";
import { parseJobData, type JobInput, type JobName } from "./job-catalog.js";
import { idempotencyWindowSeconds, jobOptionsFor, type JobRetention } from "./job-options.js";
import { keyspaceOf } from "../redis/keyspace.js";
import { spreadRepeatStrategy } from "./schedule-offset.js";
import { eventSyncDeduplicationId } from "../redis/queue-names.js";
import { queueTelemetryOption } from "./queue-telemetry.js";

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
  /**
   * A targeted sync of the project's pending PIM events, `delayMs` from now; while one is
   * waiting, this joins it (its run reads every target pending when it starts); while one runs,
   * one more follows it.
   */
  enqueueEventSync(project: number, delayMs: number): Promise<void>;
  /** One job at a time per project queue, across every worker (see queue-names.ts). */
  enforceOneJobPerProject(): Promise<void>;
  close(): Promise<void>;
}

/** Queues of the configured projects. Every job's data is validated here, before it is stored. */
export function createJobQueues(args: {
  readonly connection: RedisClient;
  readonly prefix: string;
  readonly projects: readonly number[];
  readonly retention: JobRetention;
  /** Connection errors of the queues (without a listener BullMQ prints them with console.error). */
  readonly onError?: (error: Error) => void;
  /** Scheduled syncs spread over this window (schedule-offset.ts); the worker's, which writes the schedules. */
  readonly scheduleJitterMs?: number;
}): JobQueues {
  const keyspace = keyspaceOf(args.connection, args.prefix);
  const queues = new Map<number, Queue>();
  for (const project of args.projects) {
    const settings = args.scheduleJitterMs === undefined ? {} : { settings: { repeatStrategy: spreadRepeatStrategy(project, args.scheduleJitterMs) } };
    const queue = new Queue(keyspace.projectQueue(project), { connection: args.connection, prefix: args.prefix, ...settings, ...queueTelemetryOption() });
    // The commands waiting on Redis see the failure themselves; this only keeps it off the console.
    queue.on("error", (error) => args.onError?.(error));
    queues.set(project, queue);
  }

  function queueFor(project: number): Queue {
    const queue = queues.get(project);
    if (!queue) throw new Error(`project ${project} is not configured`);
    return queue;
  }

  const baseOptions = (name: JobName): JobsOptions => jobOptionsFor(name, args.retention);
  // A key outlives its job's retention: a redelivery after the job was removed is still a duplicate.
  const idempotencyKeySeconds = idempotencyWindowSeconds(args.retention);

  return {
    queueFor,
    projects: args.projects,
    async enqueueSync(input) {
      const data = parseJobData("sync.run", input);
      const queued = await enqueueSync({ queue: queueFor(data.project), redis: args.connection, keyspace, data, options: baseOptions("sync.run") });
      return { project: data.project, ...queued };
    },
    async enqueueAddOptions(input, options = {}) {
      const data = parseJobData("options.add", input);
      const queue = queueFor(data.project);
      if (options.idempotencyKey === undefined) {
        const job = await queue.add("options.add", data, baseOptions("options.add"));
        return { project: data.project, jobId: job.id ?? "", status: "queued" };
      }
      // One Idempotency-Key, one job (see idempotency-keys.ts).
      const added = await addJobOnce({
        redis: args.connection,
        keyOf: (digest) => keyspace.projectKey(data.project, "idempotency", digest),
        idempotencyKey: options.idempotencyKey,
        queue,
        name: "options.add",
        data,
        options: baseOptions("options.add"),
        jobIdPrefix: "add-",
        ttlSeconds: idempotencyKeySeconds,
        refOf: (jobId) => `${data.project}/${jobId}`,
      });
      return { project: data.project, ...added };
    },
    async enqueueEventSync(project, delayMs) {
      const data = parseJobData("sync.events", { project });
      await queueFor(project).add("sync.events", data, { ...baseOptions("sync.events"), delay: delayMs, deduplication: { id: eventSyncDeduplicationId(project), keepLastIfActive: true } });
    },
    async enforceOneJobPerProject() {
      await Promise.all([...queues.values()].map((queue) => queue.setGlobalConcurrency(1)));
    },
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}
