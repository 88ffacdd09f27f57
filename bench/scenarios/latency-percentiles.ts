/**
 * The p-th percentile of some latencies by the nearest-rank rule (the smallest value with at
 * least p % of the values at or below it), null for none. Pure.
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  if (!(p > 0 && p <= 100)) throw new RangeError(`a percentile is in (0, 100], got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1] ?? null;
}

/** Each request's latency, enqueue to completion, from its job's timestamps (ms); a job not finished is an error. */
export function requestLatencies(
  jobs: readonly { readonly id?: string | undefined; readonly timestamp: number; readonly finishedOn?: number | undefined }[],
): number[] {
  return jobs.map((job) => {
    if (job.finishedOn === undefined) throw new Error(`job ${job.id ?? "?"} has not finished`);
    return job.finishedOn - job.timestamp;
  });
}
