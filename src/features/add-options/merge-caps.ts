/**
 * The limits of merged add-options (docs/worker.md, "Merged add-options"), in one place.
 */
export const MERGE_CAPS = {
  /**
   * Requests one run takes in, its own included: bounds the Redis reads of the peek, the PIM
   * checks and the outcome write of one batch, and how long one run may take.
   */
  maxRequests: 1000,
  /**
   * Options per add-options or update-options call. The service documents no limit; a request
   * carries at most 1,000 options (add-options-request.ts), so one request always fits in a call
   * and a call is never split inside a request.
   */
  maxOptionsPerCall: 1000,
  /**
   * How long a merged request's outcome is kept for its own job to find. Its job normally runs
   * right after the batch; the week covers a worker that is stopped for days in between. When the
   * outcome is gone the job simply runs itself (the PIM check and the state make that a no-op).
   */
  outcomeTtlSeconds: 7 * 86_400,
} as const;
