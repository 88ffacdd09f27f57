import { redactRedisUrl } from "./redact-redis-url.js";

/** Redis did not answer (or went away) while a command needed it; the CLI prints one line, exit 1. */
export class RedisUnavailableError extends Error {
  constructor(url: string, detail: string, options?: { readonly cause?: unknown }) {
    super(`Redis at ${redactRedisUrl(url)} is not answering: ${detail}`, options);
    this.name = "RedisUnavailableError";
  }
}

/**
 * The ioredis failures that mean "Redis is away" rather than "this command is wrong": what a
 * command sees when the connection drops after it connected.
 */
export function isRedisConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "MaxRetriesPerRequestError") return true;
  return /Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Stream isn't writeable/.test(error.message);
}
