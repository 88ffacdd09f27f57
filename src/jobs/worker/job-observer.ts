import type { JobQueueKind } from "../catalog/define-job.js";

/** What a job's run (each attempt) ended with, told to whoever watches the worker (its metrics). */
export type JobRunEnd = {
  /** The catalog entry's name. */
  readonly name: string;
  readonly queue: JobQueueKind;
  /** What the job works for: the project id on a project queue, the channel connection on the Activation queue. */
  readonly subject: string;
  readonly durationMs: number;
  readonly data: unknown;
} & ({ readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly error: unknown });

/** Told of every job run (each attempt) this process ends, on every queue. */
export interface JobObserver {
  runEnded(end: JobRunEnd): void;
}
