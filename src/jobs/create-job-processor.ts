import { UnrecoverableError, type Job, type Processor } from "bullmq";
import type { Logger } from "pino";
import type { ConcurrencyLimiter } from "../http/concurrency-limiter.js";
import type { ProjectRuntime } from "../project-runtime.js";
import type { Settings } from "../settings/settings-schema.js";
import { isProjectJobName, parseJobData, type ProjectJobName } from "./job-catalog.js";
import { JOB_HANDLERS, type JobContext, type JobHandlers } from "./job-handlers.js";
import { runJobWithPolicy } from "./run-job-with-policy.js";

/**
 * The processor every project queue's worker runs: validates the data again (a job may come
 * from an older version), bounds the job in time, caps how many jobs run in this process, and
 * turns failures into BullMQ's three outcomes (fail now, delay without using an attempt, retry).
 */
export function createJobProcessor(args: {
  readonly runtimes: ReadonlyMap<number, ProjectRuntime>;
  readonly settings: Settings;
  readonly logger: Logger;
  readonly slots: ConcurrencyLimiter;
  /** The catalog's handlers; replaced only to measure the queue's own cost (bench/). */
  readonly handlers?: JobHandlers;
}): Processor {
  const handlers = args.handlers ?? JOB_HANDLERS;
  const { settings } = args;
  const timeoutOf: Record<ProjectJobName, number> = {
    "sync.run": settings.worker.sync_timeout_ms,
    "options.add": settings.worker.add_options_timeout_ms,
  };

  return async (job: Job, token?: string, workerSignal?: AbortSignal): Promise<unknown> => {
    const name = job.name;
    if (!isProjectJobName(name)) throw new UnrecoverableError(`unknown job name '${name}'`);
    let data;
    try {
      data = parseJobData(name, job.data);
    } catch (error) {
      throw new UnrecoverableError((error as Error).message);
    }
    const runtime = args.runtimes.get(data.project);
    if (!runtime) throw new UnrecoverableError(`project ${data.project} is not configured in this worker`);
    const logger = args.logger.child({ job: job.id, jobName: name, project: data.project, attempt: job.attemptsMade + 1 });

    return args.slots.run(() =>
      runJobWithPolicy({
        job,
        token,
        workerSignal,
        logger,
        timeoutMs: timeoutOf[name],
        run(signal) {
          const context: JobContext = { runtime, settings, logger, signal, log: async (line: string) => void (await job.log(line)) };
          // The catalog pairs each name with its data type; TypeScript cannot follow that pairing
          // through the union, so the handler is called through its widest signature.
          const handler = handlers[name] as (data: unknown, context: JobContext) => Promise<unknown>;
          return handler(data, context);
        },
      }),
    );
  };
}
