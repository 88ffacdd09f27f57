import type { BackendFactory, Processor, RedisQueueBackend, RepeatStrategy } from "bullmq";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import type { Logger } from "pino";
import type { ConcurrencyLimiter } from "../../infra/http/concurrency-limiter.js";
import type { WorkerSettings } from "../../settings/settings-schema.js";
import { JOB_DEFINITIONS } from "../catalog/job-catalog.js";
import { isFailureLogged } from "./logged-failures.js";
import { SlotGatedWorker } from "./slot-gated-worker.js";
import { queueTelemetryOption } from "../queues/queue-telemetry.js";
import type { QueueWakeUps } from "./queue-wake-ups.js";
import type { RankedSlots } from "./ranked-slots.js";

/** Delays for Retry-After do not use attempts; this bounds them (and stall loops) anyway. */
const MAX_STARTED_ATTEMPTS = Math.max(...JOB_DEFINITIONS.map((entry) => entry.attempts)) * 3;

/**
 * The BullMQ worker of one queue, as every queue pim-sync runs has it: one job at a time (the
 * queue's global concurrency of 1 enforces it across processes), taken only with one of the
 * process' slots free (see slot-gated-worker.ts), the configured lock and stall settings, and
 * its outcomes logged under the queue's name.
 */
export function startQueueWorker(args: {
  readonly queue: string;
  readonly processor: Processor;
  readonly slots: ConcurrencyLimiter | RankedSlots;
  /** The process' reader of every project queue's wake-ups (queue-wake-ups.ts); without it, a blocking connection of its own. */
  readonly wakeUps?: QueueWakeUps;
  /** With `wakeUps`: the queues' shared BullMQ connection (shared-queue-backend.ts). */
  readonly backend?: BackendFactory<RedisQueueBackend>;
  readonly connection: RedisClient;
  readonly prefix: string;
  readonly settings: WorkerSettings;
  readonly logger: Logger;
  readonly onError: (error: Error) => void;
  /** Told when a lock token has no next job (see project-lease-chain.ts). */
  readonly onRunEnded?: (token: string) => void;
  /** The next time of a scheduled job, when the queue's schedules are spread (schedule-offset.ts). */
  readonly repeatStrategy?: RepeatStrategy;
}): SlotGatedWorker {
  const worker = new SlotGatedWorker(args.queue, args.processor, {
    slots: args.slots,
    ...(args.onRunEnded ? { onRunEnded: args.onRunEnded } : {}),
    ...(args.wakeUps ? { wakeUps: args.wakeUps } : {}),
    ...(args.backend ? { backend: args.backend } : {}),
    connection: args.connection,
    prefix: args.prefix,
    concurrency: 1,
    lockDuration: args.settings.lock_duration_ms,
    stalledInterval: args.settings.stalled_interval_ms,
    maxStalledCount: args.settings.max_stalled_count,
    maxStartedAttempts: MAX_STARTED_ATTEMPTS,
    ...(args.repeatStrategy ? { settings: { repeatStrategy: args.repeatStrategy } } : {}),
    ...queueTelemetryOption(),
  });
  const log = args.logger.child({ queue: args.queue });
  // A run logs its own failure with the verdict; this logs only what failed outside a run.
  worker.on("failed", (job, error) => {
    if (!isFailureLogged(error)) log.warn({ job: job?.id, jobName: job?.name, attemptsMade: job?.attemptsMade, err: error }, "job failed");
  });
  worker.on("completed", (job) => log.info({ job: job.id, jobName: job.name }, "job completed"));
  worker.on("stalled", (jobId) => log.warn({ job: jobId }, "job stalled: its worker stopped renewing the lock"));
  worker.on("error", args.onError);
  return worker;
}
