import { setTimeout as sleep } from "node:timers/promises";
import type { RedisClient } from "../redis/redis-client.js";
import type { Logger } from "pino";
import { createConcurrencyLimiter } from "../http/concurrency-limiter.js";
import { budgetsFor, createProjectRuntime, type ProjectRuntime } from "../project-runtime.js";
import type { Settings } from "../settings/settings-schema.js";
import { createProjectLock } from "../state/project-lock.js";
import { createJobProcessor } from "./create-job-processor.js";
import { createJobCancellation, type JobCancellation } from "./job-cancellation.js";
import { ProjectLeaseChain } from "./project-lease-chain.js";
import { startQueueWorker } from "./start-queue-worker.js";
import type { JobHandlers } from "./job-handlers.js";
import type { JobObserver } from "./job-observer.js";
import { projectQueueBinding } from "./project-queue-binding.js";
import type { JobCatalog } from "./catalog/job-catalog-of.js";
import { DEFAULT_JOB_CATALOG } from "./job-catalog.js";
import { createJobQueues, type JobQueues } from "./job-queues.js";
import { keyspaceOf } from "../redis/keyspace.js";
import { keepQueueSafety, type QueueSafetyKeeper } from "./keep-queue-safety.js";
import { upsertSchedules } from "./upsert-schedules.js";
import { spreadRepeatStrategy } from "./schedule-offset.js";
import { prepareActivation, startActivationWorker, type ActivationParts, type RunningActivationWorker } from "./start-activation-worker.js";
import { projectLabelLocales } from "../add-options/project-label-locales.js";
import { closeRedis } from "../redis/close-redis.js";
import { createWorkerRedis } from "../redis/create-worker-redis.js";
import { isRedisConnectionFailure } from "../redis/redis-unavailable-error.js";
import { createJobFinalStatusStore, type JobFinalStatusStore } from "./job-final-status-store.js";
import { idempotencyWindowSeconds } from "./job-options.js";
import { recordFinalStatuses } from "./record-final-statuses.js";
import { createPimEventStore, type PimEventStore } from "../events/pim-event-store.js";

/** How long aborted jobs get to hand themselves back before the worker gives up on them. */
const ABORT_GRACE_MS = 5_000;
/** Closing the queues waits on Redis; during an outage it would wait for the outage to end. */
const QUEUE_CLOSE_GRACE_MS = 2_000;

export interface RunningWorker {
  readonly queues: JobQueues;
  /** The Redis connection the worker's queues use. */
  readonly connection: RedisClient;
  /** The Activation worker, when `activation` is configured. */
  readonly activation: RunningActivationWorker | null;
  /**
   * The locales labels may use in a project (service spelling), from the cached PIM structure;
   * `recheck` (before refusing a locale) re-reads it unless it was read within
   * `add_options.locale_recheck_ms`.
   */
  projectLocales(project: number, recheck: boolean): Promise<readonly string[]>;
  /** The projects whose BullMQ worker is not running (closed, or never started). */
  stoppedProjects(): readonly number[];
  /** Stop taking jobs, let active ones finish within the deadline, release everything. */
  stop(): Promise<{ readonly forced: boolean }>;
}

/** The worker before Redis is reached: its queues, clients and connection, nothing sent yet. */
export interface PreparedWorker {
  readonly queues: JobQueues;
  /** The Redis connection the worker's queues use. */
  readonly connection: RedisClient;
  /** The Activation queue and client, when `activation` is configured. */
  readonly activation: ActivationParts | null;
  /** How each project job ended, kept for the idempotency window (after BullMQ removed the job). */
  readonly finalStatuses: JobFinalStatusStore;
  /** The PIM events received and the targets they left pending (src/events/). */
  readonly pimEvents: PimEventStore;
  /**
   * The locales labels may use in a project (service spelling), from the cached PIM structure;
   * `recheck` (before refusing a locale) re-reads it unless it was read within
   * `add_options.locale_recheck_ms`.
   */
  projectLocales(project: number, recheck: boolean): Promise<readonly string[]>;
  /**
   * Waits for Redis, starts the BullMQ workers and writes the schedules, last. `signal` abandons
   * the start at its next step (a SIGTERM while Redis is away); it then rejects.
   */
  start(signal?: AbortSignal): Promise<RunningWorker>;
  /** Releases what was prepared, for a worker whose start was abandoned or failed. */
  release(): Promise<void>;
}

type StartArgs = Parameters<typeof startWorker>[0];

/**
 * The long-lived worker: one BullMQ worker per project queue, each taking a job only when one of
 * the process' `worker.concurrency` slots is free, one set of HTTP clients per
 * project whose upstream budgets are shared per upstream identity with every project and process
 * on the same Redis (src/budgets/), schedules written last in its start.
 * Several such processes on several machines may share one Redis.
 */
export async function startWorker(args: {
  readonly settings: Settings;
  readonly logger: Logger;
  readonly connection?: RedisClient;
  /** Replaced only to measure the queue's own cost (bench/). */
  readonly handlers?: JobHandlers;
  /** The catalog's list, or in a test the list with an entry of its own. */
  readonly catalog?: JobCatalog;
  /** Told how each job run ended, and of every upstream answer (the worker's metrics). */
  readonly observer?: JobObserver & { upstreamResponse(upstream: "pim" | "service", status: number | "error"): void };
}): Promise<RunningWorker> {
  const prepared = prepareWorker(args);
  try {
    return await prepared.start();
  } catch (error) {
    await prepared.release();
    throw error;
  }
}

/**
 * The worker in two steps, so that a process can serve its health checks while Redis is still
 * away (see worker-process.ts): what needs no Redis is made here, the rest in `start`.
 */
export function prepareWorker(args: StartArgs): PreparedWorker {
  const { settings, logger, observer } = args;
  if (!settings.redis) throw new Error("the worker needs `redis` in the config");
  const prefix = settings.redis.prefix;
  const connection = args.connection ?? createWorkerRedis(settings.redis, logger);
  const ownsConnection = args.connection === undefined;
  // During a Redis outage every BullMQ object reports each failed call; the connection already
  // logs one line per reconnect attempt, so these stay at debug (one JSON line each, no stack).
  const logRedisError =
    (source: string) =>
    (error: Error): void => {
      if (isRedisConnectionFailure(error)) logger.debug({ source, err: error }, "Redis call failed");
      else logger.error({ source, err: error }, `${source} error`);
    };
  const queues = createJobQueues({
    connection,
    prefix,
    projects: settings.projects.map((p) => p.id),
    retention: settings.worker,
    onError: logRedisError("queue"),
    scheduleJitterMs: settings.worker.schedule_jitter_ms,
    ...(args.catalog ? { catalog: args.catalog } : {}),
  });
  // One set of budgets for the process: its projects take turns at each (see src/budgets/).
  const budgets = budgetsFor(settings, logger, connection);
  const runtimes = new Map<number, ProjectRuntime>(
    settings.projects.map((project) => [
      project.id,
      createProjectRuntime({
        settings,
        project,
        logger,
        redis: connection,
        budgets,
        ...(observer ? { onUpstreamResponse: (upstream, status) => observer.upstreamResponse(upstream, status) } : {}),
      }),
    ]),
  );
  const finalStatuses = createJobFinalStatusStore(connection, keyspaceOf(connection, prefix), idempotencyWindowSeconds(settings.worker));
  const pimEvents = createPimEventStore(connection, keyspaceOf(connection, prefix));
  const activationParts = settings.activation
    ? prepareActivation({
        settings,
        logger,
        connection,
        budgets,
        onError: logRedisError,
        ...(args.catalog ? { catalog: args.catalog } : {}),
      })
    : null;
  const projectLocales = async (project: number, recheck: boolean): Promise<readonly string[]> => {
    const runtime = runtimes.get(project);
    if (!runtime) throw new Error(`project ${project} is not configured`);
    return projectLabelLocales(runtime, recheck ? { maxAgeMs: settings.add_options.locale_recheck_ms } : {});
  };

  let released: Promise<void> | undefined;
  function release(): Promise<void> {
    released ??= (async () => {
      // Closing the queues waits on Redis, which may be the reason the start never completed.
      await Promise.race([
        Promise.allSettled([queues.close(), activationParts?.release()]),
        sleep(QUEUE_CLOSE_GRACE_MS, undefined, { ref: false }),
      ]);
      await Promise.allSettled([...runtimes.values()].map((runtime) => runtime.close()));
      if (ownsConnection) await closeRedis(connection);
    })();
    return released;
  }

  async function start(signal?: AbortSignal): Promise<RunningWorker> {
    const abandoned = (): void => {
      if (signal?.aborted) throw new Error("the worker's start was abandoned (stopping)");
    };
    await queues.enforceOneJobPerProject();
    abandoned();

    const slots = createConcurrencyLimiter(settings.worker.concurrency);
    const leases = new ProjectLeaseChain((error) =>
      logger.warn({ err: error }, "could not release the project lock; it expires by itself"),
    );
    const cancellation = createJobCancellation();
    const processor = createJobProcessor({
      cancellation,
      binding: projectQueueBinding({
        leases,
        runtimes,
        settings,
        projectLock: createProjectLock(connection, prefix, { ttlMs: settings.worker.lock_duration_ms }),
      }),
      infra: {
        redis: connection,
        prefix,
        keyspace: keyspaceOf(connection, prefix),
        settings,
        queueFor: (project) => queues.queueFor(project),
      },
      settings,
      logger,
      handlers: args.handlers,
      observer: args.observer,
      ...(args.catalog ? { catalog: args.catalog } : {}),
    });
    const workers = settings.projects.map((project) => {
      const worker = startQueueWorker({
        queue: keyspaceOf(connection, prefix).projectQueue(project.id),
        processor,
        slots,
        connection,
        prefix,
        settings: settings.worker,
        logger,
        onError: logRedisError("worker"),
        onRunEnded: (token) => leases.end(token),
        repeatStrategy: spreadRepeatStrategy(project.id, settings.worker.schedule_jitter_ms),
      });
      recordFinalStatuses(worker, project.id, finalStatuses, args.catalog ?? DEFAULT_JOB_CATALOG, logger);
      return worker;
    });
    let activation: RunningActivationWorker | null = null;
    try {
      activation = activationParts
        ? await startActivationWorker({
            settings,
            logger,
            connection,
            parts: activationParts,
            slots,
            onError: logRedisError,
            observer,
            ...(args.catalog ? { catalog: args.catalog } : {}),
          })
        : null;
      abandoned();
      // Last: a worker that could not start (its HTTP port taken, Redis refusing it) must not
      // have replaced the schedules the running fleet uses.
      await upsertSchedules({ redis: connection, prefix, queues, projects: settings.projects, retention: settings.worker, logger });
      await activation?.upsertSchedules();
      abandoned();
    } catch (error) {
      await Promise.race([
        Promise.allSettled([...workers.map((worker) => worker.close(true)), activation?.closeWorker().then(() => activation?.release())]),
        sleep(QUEUE_CLOSE_GRACE_MS, undefined, { ref: false }),
      ]);
      throw error;
    }
    // Written once at start, but lost with Redis' data (or changed by another worker): restored
    // on reconnection and periodically.
    const safety = keepQueueSafety({
      connection,
      prefix,
      queues,
      projects: settings.projects,
      retention: settings.worker,
      intervalMs: settings.worker.safety_check_interval_ms,
      logger,
      alsoCheck: activation ? [(warn) => activation.restoreSafety(warn)] : [],
    });
    logger.info({ projects: settings.projects.map((p) => p.id), concurrency: settings.worker.concurrency }, "worker started");
    return running({ workers, activation, safety, cancellation });
  }

  function running(parts: {
    readonly workers: readonly ReturnType<typeof startQueueWorker>[];
    readonly activation: RunningActivationWorker | null;
    readonly safety: QueueSafetyKeeper;
    readonly cancellation: JobCancellation;
  }): RunningWorker {
    const { workers, activation, safety, cancellation } = parts;
    return {
      queues,
      connection,
      activation,
      projectLocales,
      stoppedProjects: () => settings.projects.filter((_, index) => workers[index]?.isRunning() !== true).map((project) => project.id),
      async stop() {
        safety.stop();
        if (connection.status !== "ready") {
          // Redis is away: no job can record its end, and closing would wait for Redis. Jobs that
          // were running keep their locks until they expire; another worker then recovers them.
          logger.warn("Redis is not answering: stopping without waiting for it");
          await Promise.race([
            Promise.all(workers.map((worker) => worker.close(true))).catch(() => undefined),
            sleep(QUEUE_CLOSE_GRACE_MS, undefined, { ref: false }),
          ]);
          for (const worker of workers) void worker.disconnect().catch(() => undefined);
          activation?.cancelAll("worker shutting down: RedisClient is away");
          await Promise.allSettled([...runtimes.values()].map((runtime) => runtime.close()));
          if (ownsConnection) await closeRedis(connection);
          logger.info({ forced: true }, "worker stopped");
          return { forced: true };
        }
        const closing = Promise.all([...workers.map((worker) => worker.close()), activation?.closeWorker()]);
        const deadline = sleep(settings.worker.shutdown_timeout_ms, "deadline" as const, { ref: false });
        const forced = (await Promise.race([closing.then(() => "closed" as const), deadline])) === "deadline";
        if (forced) {
          // Abort what still runs: each job hands itself back to the queue (see the processor),
          // so another worker takes it over at once instead of waiting for its lock to expire.
          logger.warn({ deadlineMs: settings.worker.shutdown_timeout_ms }, "active jobs did not finish in time; handing them back");
          cancellation.cancelAll("worker shutting down");
          activation?.cancelAll("worker shutting down");
          const grace = sleep(ABORT_GRACE_MS, "stuck" as const, { ref: false });
          if ((await Promise.race([closing.then(() => "closed" as const), grace])) === "stuck") {
            logger.error("jobs did not stop after being aborted; their locks will expire and another worker will recover them");
          }
        }
        await Promise.race([
          Promise.all([queues.close().catch(() => undefined), activation?.release().catch(() => undefined)]),
          sleep(QUEUE_CLOSE_GRACE_MS, undefined, { ref: false }),
        ]);
        await Promise.allSettled([...runtimes.values()].map((runtime) => runtime.close()));
        if (ownsConnection) await closeRedis(connection);
        logger.info({ forced }, "worker stopped");
        return { forced };
      },
    };
  }

  return { queues, connection, activation: activationParts, finalStatuses, pimEvents, projectLocales, start, release };
}
