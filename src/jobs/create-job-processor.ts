import { UnrecoverableError, type Job, type Processor } from "bullmq";
import type { Logger } from "pino";
import { LazyChildLogger } from "../log/lazy-child-logger.js";
import { redactorOfSettings } from "../secrets/redactor-of-settings.js";
import type { ProjectRuntime } from "../project-runtime.js";
import type { Settings } from "../settings/settings-schema.js";
import { describeHolder, type ProjectLease, type ProjectLock } from "../state/project-lock.js";
import type { FullSyncProgress } from "./full-sync-progress.js";
import { isProjectJobName, parseJobData, type ProjectJobName } from "./job-catalog.js";
import { JOB_HANDLERS, type PimEventBacklog, type AddOptionsBatching, type JobContext, type JobHandlers } from "./job-handlers.js";
import type { JobObserver } from "./job-observer.js";
import type { ProjectLeaseChain } from "./project-lease-chain.js";
import { runJobWithPolicy } from "./run-job-with-policy.js";
import { messageOf } from "../errors/message-of.js";
import { tracingHooks } from "../telemetry/tracing-hooks.js";
import { SPAN_ATTRIBUTES } from "../telemetry/span-attribute-names.js";
import type { JobCancellation } from "./job-cancellation.js";

/**
 * The processor every project queue's worker runs: validates the data again (a job may come
 * from an older version), bounds the job in time, and turns failures into BullMQ's three
 * outcomes (fail now, delay without using an attempt, retry).
 */
export function createJobProcessor(args: {
  readonly runtimes: ReadonlyMap<number, ProjectRuntime>;
  readonly settings: Settings;
  readonly logger: Logger;
  /** The catalog's handlers; replaced only to measure the queue's own cost (bench/). */
  readonly handlers?: JobHandlers;
  /**
   * Taken around every job, so a `--once` command (which takes it too) never interleaves with a
   * job of the same project: the job waits while such a command runs.
   */
  readonly projectLock?: ProjectLock;
  /** Keeps the project lock between jobs run back to back (see project-lease-chain.ts). */
  readonly leases?: ProjectLeaseChain;
  /** Lets a retried `--full` sync skip the collections it already replaced. */
  readonly fullSyncProgress?: FullSyncProgress;
  /** Told how each run ended (the worker's metrics). */
  readonly observer?: JobObserver | undefined;
  /** Lets an add-options job carry out the add-options requests waiting behind it. */
  readonly addOptionsBatching?: AddOptionsBatching;
  /** The targets a `sync.events` job reads (src/events/). */
  readonly pimEvents?: PimEventBacklog;
  /** Where the worker's shutdown aborts the running jobs. */
  readonly cancellation: JobCancellation;
}): Processor {
  const handlers = args.handlers ?? JOB_HANDLERS;
  const { settings } = args;
  const redactor = redactorOfSettings(settings);
  const timeoutOf: Record<ProjectJobName, number> = {
    "sync.run": settings.worker.sync_timeout_ms,
    "sync.events": settings.worker.sync_timeout_ms,
    "options.add": settings.worker.add_options_timeout_ms,
  };

  // Two parameters: BullMQ makes a per-job AbortController only for a processor that takes a third.
  return async (job: Job, token?: string): Promise<unknown> => {
    const name = job.name;
    if (!isProjectJobName(name)) throw new UnrecoverableError(`unknown job name '${name}'`);
    let data;
    try {
      data = parseJobData(name, job.data);
    } catch (error) {
      throw new UnrecoverableError(messageOf(error));
    }
    const runtime = args.runtimes.get(data.project);
    if (!runtime) throw new UnrecoverableError(`project ${data.project} is not configured in this worker`);
    tracingHooks().annotate({ [SPAN_ATTRIBUTES.project]: data.project });
    // Every line of a job carries these, so all of one job's lines can be found together.
    const jobLog = new LazyChildLogger(args.logger, { job: job.id, jobName: name, project: data.project, queue: job.queueName, attempt: job.attemptsMade + 1 });

    // The process' job slot was taken before the job was (see slot-gated-worker.ts).
    return runJobWithPolicy({
      job,
      token,
      cancellation: args.cancellation,
      logger: jobLog,
      timeoutMs: timeoutOf[name],
      redactor,
      async run(signal, abort) {
        // The project's lock is shared with `--once` commands (see project-lock.ts); a job that
        // loses it (expired while the process stalled) stops rather than write beside another.
        let lease: ProjectLease | undefined;
        // The job's own signal is aborted if the lock is lost: one signal per job (AbortSignal.any
        // made a third one, and was a measurable part of a no-op job's CPU).
        const onLockLost = (): void => abort(lease?.signal.reason instanceof Error ? lease.signal.reason : new Error("lost the project lock"));
        try {
          lease =
            args.leases?.take(token, data.project) ??
            (await args.projectLock?.acquire(data.project, describeHolder(`job ${data.project}/${job.id ?? "?"}`), {
              signal,
              onWait: (heldBy) => {
                jobLog.write("info", "waiting for the project lock", { heldBy });
                void job.log(`waiting for the project lock, held by ${heldBy}`).catch(() => undefined);
              },
            }));
          lease?.signal.addEventListener("abort", onLockLost, { once: true });
          jobLog.write("info", "job started");
          const context: JobContext = {
            jobId: job.id ?? "",
            runtime,
            settings,
            // Made when the handler first logs: a job that logs nothing never pays for it.
            get logger() {
              return jobLog.logger;
            },
            signal,
            log: async (line: string) => void (await job.log(redactor.redact(line))),
            ...(args.fullSyncProgress && job.id !== undefined ? { fullSyncProgress: args.fullSyncProgress } : {}),
            ...(args.addOptionsBatching && job.id !== undefined ? { addOptionsBatching: args.addOptionsBatching } : {}),
            ...(args.pimEvents ? { pimEvents: args.pimEvents } : {}),
          };
          // The catalog pairs each name with its data type; TypeScript cannot follow that pairing
          // through the union, so the handler is called through its widest signature.
          const handler = handlers[name] as (data: unknown, context: JobContext) => Promise<unknown>;
          const started = Date.now();
          const ran = { name, project: data.project, data };
          try {
            const result = await handler(data, context);
            args.observer?.runEnded({ ...ran, durationMs: Date.now() - started, ok: true, result });
            return result;
          } catch (error) {
            args.observer?.runEnded({ ...ran, durationMs: Date.now() - started, ok: false, error });
            throw error;
          }
        } finally {
          lease?.signal.removeEventListener("abort", onLockLost);
          if (lease && args.leases) args.leases.keep(token, data.project, lease);
          // Not awaited, so the job's end does not wait a Redis round trip for it: the release is
          // written before BullMQ's completion call on the same connection, and Redis runs one
          // connection's commands in order, so the job shows as finished only once its lock is
          // free, and this worker's next job asks for the lock after the release.
          else void lease?.release().catch((error: unknown) => jobLog.write("warn", "could not release the project lock; it expires by itself", { err: error }));
        }
      },
    });
  };
}
