/**
 * What a queue's BullMQ event stream says about a run of jobs: when the first was added and the
 * first started, when the last finished, how many completed, failed or were retried. Times come
 * from the stream ids (`<ms>-<seq>`, written by Redis scripts on the Redis server's clock), so
 * they do not depend on how fast the benchmark reads the stream.
 */

/** One entry of a queue's event stream, as recorded by the benchmark. */
export interface QueueStreamEvent {
  /** Stream id, `<epoch ms>-<sequence>`. */
  readonly id: string;
  readonly event: string;
  readonly jobId?: string | undefined;
  readonly prev?: string | undefined;
}

export interface QueueRunSummary {
  /** Distinct jobs seen added. */
  readonly added: number;
  /** Distinct jobs completed / finally failed. */
  readonly completed: number;
  readonly failed: number;
  /**
   * Times a started job went back to the queue instead of finishing: to delayed (a retry with
   * backoff, or an upstream's Retry-After) or straight back to waiting (a retry without backoff).
   */
  readonly requeued: number;
  readonly firstAddedMs: number | null;
  readonly firstActiveMs: number | null;
  /** The last completion or final failure. */
  readonly lastFinishedMs: number | null;
}

/** The epoch milliseconds of a stream id. */
export function streamIdMs(id: string): number {
  const ms = Number(id.split("-", 1)[0]);
  if (!Number.isFinite(ms) || id.trim() === "") throw new Error(`not a stream id: '${id}'`);
  return ms;
}

export function summarizeQueueRun(events: readonly QueueStreamEvent[]): QueueRunSummary {
  const added = new Set<string>();
  const completed = new Set<string>();
  const failed = new Set<string>();
  let requeued = 0;
  let firstAddedMs: number | null = null;
  let firstActiveMs: number | null = null;
  let lastFinishedMs: number | null = null;
  for (const entry of events) {
    const at = streamIdMs(entry.id);
    const jobId = entry.jobId ?? "";
    switch (entry.event) {
      case "added":
        added.add(jobId);
        firstAddedMs = firstAddedMs === null ? at : Math.min(firstAddedMs, at);
        break;
      case "active":
        firstActiveMs = firstActiveMs === null ? at : Math.min(firstActiveMs, at);
        break;
      case "completed":
      case "failed":
        (entry.event === "completed" ? completed : failed).add(jobId);
        lastFinishedMs = lastFinishedMs === null ? at : Math.max(lastFinishedMs, at);
        break;
      case "delayed":
        requeued += 1;
        break;
      case "waiting":
        if (entry.prev === "active") requeued += 1;
        break;
    }
  }
  return { added: added.size, completed: completed.size, failed: failed.size, requeued, firstAddedMs, firstActiveMs, lastFinishedMs };
}

/** Jobs per second over a span in ms; null when the span is unknown or empty. */
export function jobsPerSecond(jobs: number, fromMs: number | null, toMs: number | null): number | null {
  if (fromMs === null || toMs === null || toMs <= fromMs) return null;
  return jobs / ((toMs - fromMs) / 1000);
}

/** The middle value (the mean of the two middle ones for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The median of round-by-round ratios (`numerators[i] / denominators[i]`): two workers measured
 * back to back in one round share the machine's conditions of the moment, so their ratio is
 * steadier than the ratio of their separate medians when other processes come and go.
 */
export function medianPairedRatio(numerators: readonly number[], denominators: readonly number[]): number | null {
  if (numerators.length !== denominators.length) throw new Error(`paired ratio of ${numerators.length} and ${denominators.length} values`);
  return median(
    numerators.flatMap((value, index) => {
      const denominator = denominators[index] as number;
      return denominator > 0 ? [value / denominator] : [];
    }),
  );
}
