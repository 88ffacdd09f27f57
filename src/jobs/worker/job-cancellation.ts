/**
 * The abort controllers of the jobs a worker process is running, one per job, so that a shutdown
 * past its deadline can abort them all.
 *
 * Why not BullMQ's own per-job signal (a processor declared with a third parameter gets one,
 * aborted by `worker.cancelAllJobs`): the job's time limit and a lost project lock need a
 * controller the processor can abort with its own Error, and BullMQ's takes a string reason
 * through the worker alone. Two controllers per job (BullMQ's and ours, joined by a listener)
 * were a measured part of a no-op job's cost (docs/benchmarks.md, queue overhead); the processors
 * take two parameters, so BullMQ makes none, and this registry stands in for `cancelAllJobs`.
 */
export class JobsShutDown extends Error {
  override readonly name = "JobsShutDown";
}

/** A running job's controller, as far as the shutdown needs it (an AbortController or a LazyAbortController). */
export interface AbortableJob {
  abort(reason: Error): void;
}

export interface JobCancellation {
  /** Registers a running job's controller; call the returned function when the job ends. */
  track(controller: AbortableJob): () => void;
  /** Aborts every job running now with a JobsShutDown (the worker's shutdown deadline has passed). */
  cancelAll(message: string): void;
}

export function createJobCancellation(): JobCancellation {
  const running = new Set<AbortableJob>();
  return {
    track(controller) {
      running.add(controller);
      return () => running.delete(controller);
    },
    cancelAll(message) {
      const reason = new JobsShutDown(message);
      for (const controller of running) controller.abort(reason);
    },
  };
}
