/** What one upstream client did, for run reports and benchmarks. */
export interface RequestStats {
  requests: number;
  reads: number;
  writes: number;
  retries: number;
  rateLimited: number;
  failures: number;
}

export function createRequestStats(): RequestStats {
  return { requests: 0, reads: 0, writes: 0, retries: 0, rateLimited: 0, failures: 0 };
}

/** What happened between two snapshots of the same counters (clients shared by many jobs). */
export function statsSince(before: RequestStats, now: RequestStats): RequestStats {
  return {
    requests: now.requests - before.requests,
    reads: now.reads - before.reads,
    writes: now.writes - before.writes,
    retries: now.retries - before.retries,
    rateLimited: now.rateLimited - before.rateLimited,
    failures: now.failures - before.failures,
  };
}
