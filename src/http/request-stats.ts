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
