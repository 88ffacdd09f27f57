import type { Logger } from "pino";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import { QUEUE_CLOSE_GRACE_MS } from "../queues/close-queue-within-grace.js";
import { closedWithin } from "../queues/closed-within.js";
import type { JobCancellation } from "./job-cancellation.js";
import type { QueueSafetyKeeper } from "../admin/keep-queue-safety.js";
import type { startQueueWorker } from "./start-queue-worker.js";
import type { RunningActivationWorker } from "./start-activation-worker.js";

type QueueWorker = ReturnType<typeof startQueueWorker>;

/** How long aborted jobs get to hand themselves back before the worker gives up on them. */
const ABORT_GRACE_MS = 5_000;

/**
 * What takes jobs in a worker, from the moment its start begins: the BullMQ workers (one per
 * project queue, and the Activation one), the safety keeper, and the start itself while it runs.
 * One resource of the app's release stack, acquired before the HTTP listener opens so that it is
 * released after the listener closed (no request arrives once the stop begins); its release is
 * the worker's stop, whatever state the start reached:
 *
 * - the start still running (Redis away): it is abandoned at its next step (`signal`), and what
 *   it already started is closed without waiting for jobs;
 * - started, Redis answering: stop taking jobs, let active ones finish within
 *   `worker.shutdown_timeout_ms`, then abort them (each hands itself back to its queue); jobs
 *   that ignore their abort as well fail this release, which the stop then reports;
 * - started, Redis away: close without waiting for it (the jobs' locks expire, another worker
 *   recovers them).
 *
 * Queues, clients and the connection are the stack's next entries, released after this one.
 */
export interface WorkerJobs {
  /** Aborted once the stop begins: the start gives up at its next step. */
  readonly signal: AbortSignal;
  /** Records a BullMQ worker just started; once stopping, closes it and throws (the start fails). */
  addWorker(worker: QueueWorker): void;
  /** Records the started Activation worker; once stopping, closes it and throws. */
  addActivation(activation: RunningActivationWorker): void;
  /** Records that the start completed, with its safety keeper; once stopping, stops it and throws. */
  started(safety: QueueSafetyKeeper): void;
  /** The projects' BullMQ workers, in the order recorded. */
  readonly workers: readonly QueueWorker[];
  /** The worker's stop: the release of this resource. */
  stop(): Promise<void>;
}

export function createWorkerJobs(args: {
  readonly connection: RedisClient;
  readonly cancellation: JobCancellation;
  readonly shutdownTimeoutMs: number;
  readonly logger: Logger;
}): WorkerJobs {
  const { connection, cancellation, logger } = args;
  const abort = new AbortController();
  const workers: QueueWorker[] = [];
  let activation: RunningActivationWorker | null = null;
  let safety: QueueSafetyKeeper | null = null;

  function refuseWhileStopping(): void {
    if (abort.signal.aborted) throw new Error("the worker's start was abandoned (stopping)");
  }

  /** Closes what a start that did not complete had started, without waiting for jobs. */
  async function closeUnfinishedStart(): Promise<void> {
    await closedWithin(
      Promise.allSettled([...workers.map((worker) => worker.close(true)), activation?.closeWorker(true)]),
      QUEUE_CLOSE_GRACE_MS,
    );
  }

  async function stopWhileRedisAway(): Promise<void> {
    // No job can record its end, and closing would wait for Redis. Jobs that were running keep
    // their locks until they expire; another worker then recovers them.
    logger.warn("Redis is not answering: stopping without waiting for it");
    await closedWithin(
      Promise.all(workers.map((worker) => worker.close(true))).catch(() => undefined),
      QUEUE_CLOSE_GRACE_MS,
    );
    for (const worker of workers) void worker.disconnect().catch(() => undefined);
    activation?.cancelAll("worker shutting down: RedisClient is away");
    logger.info({ forced: true }, "worker stopped");
  }

  async function drain(): Promise<void> {
    const closing = Promise.all([...workers.map((worker) => worker.close()), activation?.closeWorker(false)]);
    const forced = !(await closedWithin(closing, args.shutdownTimeoutMs));
    if (forced) {
      // Abort what still runs: each job hands itself back to the queue (see the processor),
      // so another worker takes it over at once instead of waiting for its lock to expire.
      logger.warn({ deadlineMs: args.shutdownTimeoutMs }, "active jobs did not finish in time; handing them back");
      cancellation.cancelAll("worker shutting down");
      activation?.cancelAll("worker shutting down");
      if (!(await closedWithin(closing, ABORT_GRACE_MS))) {
        // Not released: the stop reports it (the process exits 1), and releases the rest anyway.
        throw new Error("jobs did not stop after being aborted; their locks will expire and another worker will recover them");
      }
    }
    logger.info({ forced }, "worker stopped");
  }

  return {
    signal: abort.signal,
    workers,
    addWorker(worker) {
      if (abort.signal.aborted) void worker.close(true).catch(() => undefined);
      else workers.push(worker);
      refuseWhileStopping();
    },
    addActivation(started) {
      if (abort.signal.aborted) void started.closeWorker(true).catch(() => undefined);
      else activation = started;
      refuseWhileStopping();
    },
    started(keeper) {
      if (abort.signal.aborted) keeper.stop();
      else safety = keeper;
      refuseWhileStopping();
    },
    async stop() {
      abort.abort();
      if (safety === null) return closeUnfinishedStart();
      safety.stop();
      if (connection.status !== "ready") return stopWhileRedisAway();
      return drain();
    },
  };
}
