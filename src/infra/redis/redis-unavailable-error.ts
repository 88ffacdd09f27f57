import { PimSyncError } from "../../core/errors/pim-sync-error.js";
/** Redis did not answer (or went away) while a command needed it; the CLI prints one line, exit 1. */
export class RedisUnavailableError extends PimSyncError {
  /** `target`: where Redis was looked for, already redacted (describeRedisTarget). */
  constructor(target: string, detail: string, options?: { readonly cause?: unknown }) {
    super(`Redis at ${target} is not answering: ${detail}`, { code: "REDIS_UNAVAILABLE", retryable: true, cause: options?.cause });
    this.name = "RedisUnavailableError";
  }
}

/**
 * The ioredis failures that mean "Redis is away" rather than "this command is wrong": what a
 * command sees when the connection drops after it connected. `None of startup nodes` and
 * `CLUSTERDOWN` are a cluster's.
 */
export function isRedisConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "MaxRetriesPerRequestError") return true;
  return /Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Stream isn't writeable|None of startup nodes is available|CLUSTERDOWN|Cluster is disconnected/.test(
    error.message,
  );
}
