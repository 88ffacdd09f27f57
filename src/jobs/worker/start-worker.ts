import type { RedisClient } from "../../infra/redis/redis-client.js";
import type { Logger } from "pino";
import type { ProjectRuntime } from "../../features/project-runtime.js";
import type { Settings } from "../../settings/settings-schema.js";
import { createProjectLock } from "../../stores/state/project-lock.js";
import { createJobProcessor } from "./create-job-processor.js";
import { createJobCancellation } from "./job-cancellation.js";
import { createWorkerJobs } from "./worker-jobs.js";
import type { WorkerResources } from "./worker-resources.js";
import { ProjectLeaseChain } from "./project-lease-chain.js";
import { startQueueWorker } from "./start-queue-worker.js";
import { createRankedSlots } from "./ranked-slots.js";
import { createQueueWakeUps } from "./queue-wake-ups.js";
import type { JobHandlers } from "../catalog/job-handlers.js";
import type { JobObserver } from "./job-observer.js";
import { projectQueueBinding } from "./project-queue-binding.js";
import type { JobCatalog } from "../catalog/job-catalog-of.js";
import { DEFAULT_JOB_CATALOG } from "../catalog/job-catalog.js";
import type { JobQueues } from "../queues/job-queues.js";
import { keyspaceOf } from "../../infra/redis/keyspace.js";
import { keepQueueSafety } from "../admin/keep-queue-safety.js";
import { upsertSchedules } from "../schedules/upsert-schedules.js";
import { spreadRepeatStrategy } from "../queues/schedule-offset.js";
import {
  prepareActivation,
  startActivationWorker,
  type ActivationParts,
  type AppActivationParts,
  type RunningActivationWorker,
} from "./start-activation-worker.js";
import { projectLabelLocales } from "../../features/add-options/project-label-locales.js";
import { logRedisErrors } from "../../infra/redis/log-redis-errors.js";
import { createJobFinalStatusStore, type JobFinalStatusStore } from "../admin/job-final-status-store.js";
import { idempotencyWindowSeconds } from "../queues/job-options.js";
import { recordFinalStatuses } from "./record-final-statuses.js";
import { createPimEventStore, type PimEventStore } from "../../features/events/pim-event-store.js";
import { createSubscriptionStateStore, type SubscriptionStateStore } from "../../features/events/subscription-state-store.js";
import { createFallbackSchedules, type FallbackSchedules } from "../schedules/fallback-schedules.js";

/** Logged once at start, naming every project whose config has no `schedule` (docs/configuration.md). */
export const PROJECT_WITHOUT_SCHEDULE_WARNING =
  "projects without a schedule: synced only when asked (a trigger, a PIM event, enqueue sync), with no scheduled sync to catch what was missed";

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
  /** Queues whose next job waits for one of this process' slots (they get it by rank, job-rank.ts). */
  waitingForSlot(): number;
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
  /** The PIM events received and the targets they left pending (src/features/events/). */
  readonly pimEvents: PimEventStore;
  /** The state of each project's Event Platform subscription, as its notifications left it. */
  readonly subscriptions: SubscriptionStateStore;
  /** The fallback syncs of projects whose events cannot be counted on (src/jobs/schedules/fallback-schedules.ts). */
  readonly fallbackSchedules: FallbackSchedules;
  /**
   * The locales labels may use in a project (service spelling), from the cached PIM structure;
   * `recheck` (before refusing a locale) re-reads it unless it was read within
   * `add_options.locale_recheck_ms`.
   */
  projectLocales(project: number, recheck: boolean): Promise<readonly string[]>;
  /**
   * Waits for Redis, starts the BullMQ workers and writes the schedules, last. The stop (the
   * release of the worker's jobs, see worker-jobs.ts) abandons it at its next step; it then
   * rejects. A start that failed is released with the rest, by the stop.
   */
  start(): Promise<RunningWorker>;
}

export interface PrepareWorkerArgs {
  readonly settings: Settings;
  readonly logger: Logger;
  /** The worker's Redis connection (reconnecting, see src/infra/redis/), owned by the caller. */
  readonly connection: RedisClient;
  /** Where each part is recorded as it is acquired: the app's release stack. */
  readonly resources: WorkerResources;
  /**
   * A configured project's clients and stores, the app's: made at the project's first need (its
   * first job, or a request that asks its locales), once, and released by the app.
   */
  readonly runtimeOf: (project: number) => Promise<ProjectRuntime>;
  /** The projects' queues, the app's (made once, released by the app after the worker's jobs). */
  readonly queues: JobQueues;
  /** The Activation queue and runtime, the app's, when `activation` is configured. */
  readonly activation: AppActivationParts | null;
  /** Replaced only to measure the queue's own cost (bench/). */
  readonly handlers?: JobHandlers | undefined;
  /** The catalog's list, or in a test the list with an entry of its own. */
  readonly catalog?: JobCatalog | undefined;
  /** Told how each job run ended, and of every upstream answer (the worker's metrics). */
  readonly observer?: (JobObserver & { upstreamResponse(upstream: "pim" | "service", status: number | "error"): void }) | undefined;
}

/**
 * The long-lived worker: one BullMQ worker per project queue, each taking a job only when one of
 * the process' `worker.concurrency` slots is free, one set of HTTP clients per
 * project whose upstream budgets are shared per upstream identity with every project and process
 * on the same Redis (src/infra/budgets/), schedules written last in its start.
 * Several such processes on several machines may share one Redis.
 *
 * In two steps, so that a process can serve its health checks while Redis is still away (see
 * worker-process.ts): what needs no Redis is made here, the rest in `start`. The runtimes (a
 * group each runtime joins at its project's first need), queues and Activation runtime are the
 * app's, recorded on `resources` before this is called; every
 * part made here is recorded as it is made (the Activation order sink, then the worker's jobs,
 * worker-jobs.ts), so that the stop closes the jobs first and the queues and clients they used
 * after them; the caller records its HTTP listener after this returns, so it closes first.
 */
export function prepareWorker(args: PrepareWorkerArgs): PreparedWorker {
  const { settings, logger, observer, connection, resources, queues, runtimeOf } = args;
  if (!settings.redis) throw new Error("the worker needs `redis` in the config");
  const prefix = settings.redis.prefix;
  const logRedisError = logRedisErrors(logger);
  const finalStatuses = createJobFinalStatusStore(connection, keyspaceOf(connection, prefix), idempotencyWindowSeconds(settings.worker));
  const pimEvents = createPimEventStore(connection, keyspaceOf(connection, prefix));
  const subscriptions = createSubscriptionStateStore(connection, keyspaceOf(connection, prefix));
  const fallbackSchedules = createFallbackSchedules({
    queues,
    projects: settings.projects,
    subscriptions,
    pimEvents,
    retention: settings.worker,
    logger,
  });
  const activationParts = args.activation ? prepareActivation({ settings, logger, resources, parts: args.activation }) : null;
  const projectLocales = async (project: number, recheck: boolean): Promise<readonly string[]> => {
    if (!settings.projects.some((configured) => configured.id === project)) throw new Error(`project ${project} is not configured`);
    return projectLabelLocales(await runtimeOf(project), recheck ? { maxAgeMs: settings.add_options.locale_recheck_ms } : {});
  };

  const cancellation = createJobCancellation();
  const jobs = createWorkerJobs({ connection, cancellation, shutdownTimeoutMs: settings.worker.shutdown_timeout_ms, logger });
  // After the queues and clients: the jobs that use them stop first.
  resources.push("the worker's jobs", () => jobs.stop());

  async function start(): Promise<RunningWorker> {
    const abandoned = (): void => {
      if (jobs.signal.aborted) throw new Error("the worker's start was abandoned (stopping)");
    };
    await queues.enforceOneJobPerProject();
    abandoned();

    // Ranked: a small job takes the next free slot ahead of full syncs (job-rank.ts).
    const slots = createRankedSlots(settings.worker.concurrency);
    // One connection reads every project queue's wake-ups: the process' connections do not grow
    // with its projects (decision 0014).
    const wakeUps = createQueueWakeUps({
      connection,
      prefix,
      queues: settings.projects.map((project) => keyspaceOf(connection, prefix).projectQueue(project.id)),
      onError: logRedisError("wake-ups"),
    });
    resources.push("the queues' wake-ups", () => wakeUps.stop());
    const leases = new ProjectLeaseChain((error) =>
      logger.warn({ err: error }, "could not release the project lock; it expires by itself"),
    );
    const processor = createJobProcessor({
      cancellation,
      binding: projectQueueBinding({
        leases,
        runtimeOf,
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
    for (const project of settings.projects) {
      const worker = startQueueWorker({
        queue: keyspaceOf(connection, prefix).projectQueue(project.id),
        processor,
        slots,
        wakeUps,
        backend: queues.backend,
        connection,
        prefix,
        settings: settings.worker,
        logger,
        onError: logRedisError("worker"),
        onRunEnded: (token) => leases.end(token),
        repeatStrategy: spreadRepeatStrategy(project.id, settings.worker.schedule_jitter_ms),
      });
      recordFinalStatuses(worker, project.id, finalStatuses, args.catalog ?? DEFAULT_JOB_CATALOG, logger);
      jobs.addWorker(worker);
    }
    const activation = activationParts
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
    if (activation) jobs.addActivation(activation);
    abandoned();
    // Warned by every instance, not only the one that upserts: a schedule is the safety net for
    // lost events and failed triggers (docs/configuration.md), so its absence is said where
    // operators look. Not refused: a project may be synced only when asked on purpose. One line
    // for all of them: a line each would be a thousand at every start of a large fleet's process.
    const unscheduled = settings.projects.filter((project) => !project.schedule).map((project) => project.id);
    if (unscheduled.length > 0)
      logger.warn({ projects: unscheduled, count: unscheduled.length, key: "projects[].schedule" }, PROJECT_WITHOUT_SCHEDULE_WARNING);
    // Last: a worker that could not start (its HTTP port taken, Redis refusing it) must not
    // have replaced the schedules the running fleet uses.
    await upsertSchedules({ redis: connection, prefix, queues, projects: settings.projects, retention: settings.worker, logger });
    await activation?.upsertSchedules();
    await fallbackSchedules.applyAll();
    abandoned();
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
      // The fallback syncs follow the subscriptions' silence too, which no notification announces.
      alsoCheck: [
        ...(activation ? [(warn: Parameters<typeof activation.restoreSafety>[0]) => activation.restoreSafety(warn)] : []),
        () => fallbackSchedules.applyAll(),
      ],
    });
    jobs.started(safety);
    logger.info({ projects: settings.projects.map((p) => p.id), concurrency: settings.worker.concurrency }, "worker started");
    return {
      queues,
      connection,
      activation,
      projectLocales,
      waitingForSlot: () => slots.waiting,
      stoppedProjects: () => settings.projects.filter((_, index) => jobs.workers[index]?.isRunning() !== true).map((project) => project.id),
    };
  }

  return {
    queues,
    connection,
    activation: activationParts,
    finalStatuses,
    pimEvents,
    subscriptions,
    fallbackSchedules,
    projectLocales,
    start,
  };
}
