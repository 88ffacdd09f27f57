import { PimSyncError } from "../../core/errors/pim-sync-error.js";
/** Redis did not answer within the server's bound: the route answers 503 rather than hang. */
export class RedisDeadlineError extends PimSyncError {
  constructor(readonly ms: number) {
    super(`Redis did not answer within ${ms} ms`, { code: "REDIS_DEADLINE", retryable: true });
    this.name = "RedisDeadlineError";
  }
}

/**
 * `work`, or a RedisDeadlineError after `ms`. The work is not cancelled: a queued command may
 * still land when Redis comes back, which is why callers are told to retry with their
 * Idempotency-Key.
 */
export async function withRedisDeadline<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisDeadlineError(ms)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
    // A late rejection of the abandoned work must not surface as unhandled.
    work.catch(() => undefined);
  }
}
