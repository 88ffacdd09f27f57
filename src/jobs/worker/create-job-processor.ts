import { UnrecoverableError, type Job, type Processor } from "bullmq";
import type { Logger } from "pino";
import { LazyChildLogger } from "../../infra/log/lazy-child-logger.js";
import { redactorOfSettings } from "../../infra/secrets/redactor-of-settings.js";
import type { Settings } from "../../settings/settings-schema.js";
import type { AnyJobDefinition, JobQueueContexts, JobQueueKind, JobQueueSubjects } from "../catalog/define-job.js";
import type { JobInfrastructure } from "../handlers/job-infrastructure.js";
import type { JobCatalog } from "../catalog/job-catalog-of.js";
import { DEFAULT_JOB_CATALOG, parseDataOf } from "../catalog/job-catalog.js";
import type { JobObserver } from "./job-observer.js";
import type { QueueBinding } from "./queue-binding.js";
import { runJobWithPolicy } from "./run-job-with-policy.js";
import { isSmallJob } from "./job-rank.js";
import { runUrgent } from "../../infra/budgets/request-urgency.js";
import { messageOf } from "../../core/errors/message-of.js";
import { tracingHooks } from "../../infra/telemetry/tracing-hooks.js";
import type { JobCancellation } from "./job-cancellation.js";

const NO_DEPS: object = Object.freeze({});

/** A handler in place of the catalog's (bench/, tests): called with the parsed data. */
export type HandlerOverride = (data: never, context: never) => Promise<unknown>;

/**
 * The one processor every queue's worker runs, whatever the job: finds the job's catalog entry
 * (a name the catalog does not have, or of another queue, fails at once), validates the data
 * again (a job may come from an older version), bounds the run by the entry's time limit, tells
 * the observer how it ended, and turns failures into BullMQ's three outcomes (fail now, delay
 * without using an attempt, retry). What differs between queues is the binding's.
 */
export function createJobProcessor<Q extends JobQueueKind>(args: {
  readonly binding: QueueBinding<Q>;
  readonly settings: Settings;
  readonly logger: Logger;
  /** The catalog's list, or in a test the list with an entry of its own. */
  readonly catalog?: JobCatalog;
  /** Replaces the handlers of some jobs: only to measure the queue's own cost (bench/) or to observe a run in tests. */
  readonly handlers?: Readonly<Record<string, HandlerOverride>> | undefined;
  /** Told how each run ended (the worker's metrics). */
  readonly observer?: JobObserver | undefined;
  /** Where the worker's shutdown aborts the running jobs. */
  readonly cancellation: JobCancellation;
  /** What the entries' `deps` are built from (see catalog/define-job.ts). */
  readonly infra: JobInfrastructure;
}): Processor {
  const { binding, settings } = args;
  const catalog = args.catalog ?? DEFAULT_JOB_CATALOG;
  const redactor = redactorOfSettings(settings);
  // Each entry's deps, built once per worker when its first job runs; a build that failed is tried again by the next job.
  const built = new Map<string, Promise<object>>();
  const depsOf = (entry: AnyJobDefinition): Promise<object> => {
    const make = entry.deps;
    if (make === undefined) return Promise.resolve(NO_DEPS);
    let deps = built.get(entry.name);
    if (deps === undefined) {
      deps = Promise.resolve(make(args.infra));
      built.set(entry.name, deps);
      deps.catch(() => built.delete(entry.name));
    }
    return deps;
  };

  // Two parameters: BullMQ makes a per-job AbortController only for a processor that takes a third.
  return async (job: Job, token?: string): Promise<unknown> => {
    const name = job.name;
    let entry;
    let data: JobQueueSubjects[Q];
    try {
      entry = catalog.entry(name, binding.queue);
      data = parseDataOf(name, entry.schema, job.data) as JobQueueSubjects[Q];
    } catch (error) {
      throw new UnrecoverableError(messageOf(error));
    }
    const place = binding.place(data, job);
    tracingHooks().annotate(place.spanAttributes);
    // Every line of a job carries these, so all of one job's lines can be found together.
    const jobLog = new LazyChildLogger(args.logger, { job: job.id, jobName: name, ...place.logFields, attempt: job.attemptsMade + 1 });
    // The catalog pairs each entry's handler with its queue's context; TypeScript cannot follow
    // that pairing through the list, so the handler is called through its widest signature.
    const handler = (Object.hasOwn(args.handlers ?? {}, name) ? args.handlers?.[name] : entry.handler) as (
      data: unknown,
      context: JobQueueContexts[Q] & { readonly deps: object },
    ) => Promise<unknown>;
    const ofEntry = entry;

    // The process' job slot was taken before the job was (see slot-gated-worker.ts).
    return runJobWithPolicy({
      job,
      token,
      cancellation: args.cancellation,
      logger: jobLog,
      timeoutMs: entry.timeoutMs(settings),
      maxDelayMs: settings.http.max_retry_after_ms,
      redactor,
      run: (controller) =>
        place.run(
          {
            job,
            token,
            // Read on demand: a run whose signal nobody reads never makes one (lazy-abort-controller.ts).
            get signal() {
              return controller.signal;
            },
            abort: (reason) => controller.abort(reason),
            logger: jobLog,
            log: async (line: string) => void (await job.log(redactor.redact(line))),
          },
          async (context) => {
            const started = Date.now();
            const ran = { name, queue: binding.queue, subject: place.subject, data };
            try {
              // Added to the context the binding made (not a copy: its logger is made on first use).
              const handled = Object.assign(context, { deps: await depsOf(ofEntry) });
              // A small job's requests go ahead of full syncs' at a shared upstream budget.
              const result = await (isSmallJob(name) ? runUrgent(() => handler(data, handled)) : handler(data, handled));
              args.observer?.runEnded({ ...ran, durationMs: Date.now() - started, ok: true, result });
              return result;
            } catch (error) {
              args.observer?.runEnded({ ...ran, durationMs: Date.now() - started, ok: false, error });
              throw error;
            }
          },
        ),
    });
  };
}
