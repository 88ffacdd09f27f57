import type { Job } from "bullmq";
import type { SpanAttributeValues } from "../../infra/telemetry/span-attribute-names.js";
import type { LazyChildLogger } from "../../infra/log/lazy-child-logger.js";
import type { JobQueueContexts, JobQueueKind, JobQueueSubjects } from "../catalog/define-job.js";

/** What the processor hands a queue's binding for one run. */
export interface PlacedRun {
  readonly job: Job;
  readonly token: string | undefined;
  /** The job's signal, made when first read: pass it on, or read it, only where it is used. */
  readonly signal: AbortSignal;
  /** Ends the run as its time limit would (a lost project lock). */
  abort(reason: Error): void;
  readonly logger: LazyChildLogger;
  /** A line in the job's log, secrets redacted. */
  log(line: string): Promise<void>;
}

/** One job on its queue: what it works for, and how it runs there. */
export interface JobPlace<Q extends JobQueueKind> {
  /** The project id or the channel connection: the label value of the specific metrics. */
  readonly subject: string;
  /** Carried by every line the job logs (besides job, jobName and attempt). */
  readonly logFields: Readonly<Record<string, string | number>>;
  /** Set on the job's span when tracing is on. */
  readonly spanAttributes: SpanAttributeValues;
  /** Calls the handler with its context, inside what the queue holds around each job (a project's lock). */
  run(run: PlacedRun, call: (context: JobQueueContexts[Q]) => Promise<unknown>): Promise<unknown>;
}

/**
 * What differs between the kinds of queue, for the one processor (create-job-processor.ts): the
 * context a handler is given and what a run holds. A kind of queue is added here, not per job.
 */
export interface QueueBinding<Q extends JobQueueKind> {
  readonly queue: Q;
  /** Throws (UnrecoverableError) when this worker cannot run the job: its project is not configured here. */
  place(data: JobQueueSubjects[Q], job: Job): JobPlace<Q>;
}
