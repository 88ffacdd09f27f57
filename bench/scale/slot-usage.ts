/**
 * The scale figures from the job runs the worker processes logged ('job started' to 'job done',
 * pino's millisecond `time`): no sampling, every moment of the window counted.
 */
export interface JobRunSpan {
  readonly start: number;
  readonly end: number;
}

export interface SlotUsage {
  /** From the first job's start to the last job's end, in ms. */
  readonly windowMs: number;
  readonly jobsPerSecond: number;
  /** Mean running jobs over the window ÷ the slots (processes × concurrency). */
  readonly slotUtilisation: number;
  /** Most jobs running at one moment. */
  readonly maxRunning: number;
}

export function slotUsage(runs: readonly JobRunSpan[], slots: number): SlotUsage | null {
  if (runs.length === 0 || slots < 1) return null;
  const first = Math.min(...runs.map((run) => run.start));
  const last = Math.max(...runs.map((run) => run.end));
  const windowMs = last - first;
  if (windowMs <= 0) return null;
  const busyMs = runs.reduce((sum, run) => sum + (run.end - run.start), 0);
  // Ends before starts at the same millisecond: a slot handed over is not two jobs at once.
  const edges = runs.flatMap((run) => [
    { at: run.start, delta: 1 },
    { at: run.end, delta: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let running = 0;
  let maxRunning = 0;
  for (const edge of edges) {
    running += edge.delta;
    maxRunning = Math.max(maxRunning, running);
  }
  return { windowMs, jobsPerSecond: (runs.length * 1000) / windowMs, slotUtilisation: busyMs / (windowMs * slots), maxRunning };
}
