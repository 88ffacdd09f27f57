import type { z } from "zod";
import { PimSyncError } from "../../core/errors/pim-sync-error.js";

/** Stable codes to match on, never on message text. */
export type HttpErrorCode =
  | "HTTP_STATUS" // the upstream answered with a non-success status
  | "HTTP_REDIRECT" // the upstream answered 3xx: never followed, never a success
  | "HTTP_TIMEOUT" // no (complete) answer in time
  | "HTTP_NETWORK" // connection refused, reset, DNS...
  | "HTTP_RESPONSE_SHAPE" // the answer did not match the expected schema
  | "HTTP_FOREIGN_ORIGIN" // not sent: the URL left the configured origin (credentials stay home)
  | "HTTP_PAUSED"; // not sent: its budget is paused (a Retry-After) for longer than the client waits in-process

export interface HttpErrorDetails {
  readonly code: HttpErrorCode;
  readonly upstream: string;
  readonly method: string;
  readonly url: string;
  readonly status?: number | undefined;
  readonly bodyExcerpt?: string | undefined;
  /** When the upstream asked us to come back later (429/503 Retry-After). */
  readonly retryAfterMs?: number | undefined;
  readonly transient: boolean;
  readonly cause?: unknown;
}

/**
 * One error type for every HTTP failure, with a message that reads like a log line:
 * `[pim GET] "http://host/api/rest/v1/attributes": 503 Service Unavailable <excerpt>`.
 * `transient` tells callers (and the job layer) whether trying again later can help.
 */
export class HttpError extends PimSyncError {
  declare readonly code: HttpErrorCode;
  readonly upstream: string;
  readonly method: string;
  readonly url: string;
  readonly status: number | undefined;
  readonly bodyExcerpt: string | undefined;
  /** Whether trying again later can help: the same as `retryable`, under the name the HTTP layer uses. */
  readonly transient: boolean;

  constructor(details: HttpErrorDetails, what: string) {
    super(`[${details.upstream} ${details.method}] "${details.url}": ${what}`, {
      code: details.code,
      retryable: details.transient,
      retryAfterMs: details.retryAfterMs,
      cause: details.cause,
    });
    this.name = "HttpError";
    this.upstream = details.upstream;
    this.method = details.method;
    this.url = details.url;
    this.status = details.status;
    this.bodyExcerpt = details.bodyExcerpt;
    this.transient = details.transient;
  }
}

/** Statuses worth another try: the request was not applied, or may succeed later. */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([
  408, // request timeout
  425, // too early
  429, // rate limited: Retry-After honoured when present
  500, // internal error: usually a passing fault upstream
  502, // bad gateway
  503, // unavailable
  504, // gateway timeout
]);

export function isTransientStatus(status: number): boolean {
  return TRANSIENT_STATUSES.has(status);
}

/**
 * Network failures that another try cannot fix: the host name does not exist (ENOTFOUND: a
 * typo in the URL, not an outage; a DNS server that is away answers EAI_AGAIN, which stays
 * transient).
 */
const PERMANENT_NETWORK_CODES: ReadonlySet<string> = new Set(["ENOTFOUND"]);

export function isPermanentNetworkFailure(cause: unknown): boolean {
  for (let current: unknown = cause, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    if ("code" in current && typeof current.code === "string" && PERMANENT_NETWORK_CODES.has(current.code)) return true;
  }
  return false;
}

/** Turns zod issues into one readable line naming each path. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], max = 5): string {
  const parts = issues.slice(0, max).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join(".") : "(root)";
    return `${path}: ${issue.message}`;
  });
  const more = issues.length > max ? ` (+${issues.length - max} more)` : "";
  return parts.join("; ") + more;
}
