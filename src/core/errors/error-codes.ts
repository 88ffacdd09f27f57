/**
 * Every code a pim-sync error carries, in one place: match on these, never on message text.
 * A code is a promise to operators and scripts (it reaches logs and job failures): add, never
 * rename.
 */
export const ERROR_CODES = {
  // Input and configuration: the same input fails the same way again.
  CONFIG_INVALID: "the config file is missing, unreadable or invalid",
  USAGE: "a command line the command does not accept",
  JOB_DATA_INVALID: "a job's data does not match its schema",
  JOB_NAME_UNKNOWN: "a job name the job catalog does not have (or of another queue)",
  JOB_NOT_FOUND: "no job has this reference",
  JOB_REF_INVALID: "not a job reference",
  IDEMPOTENCY_KEY_CONFLICT: "an Idempotency-Key already used for another request body",
  RECORD_FILE_INVALID: "an input file of records (offers, shipments) that cannot be read",
  ADD_OPTIONS_REJECTED: "an add-options request refused (allowlist, attribute, names, labels)",
  PROJECT_SCOPE: "a project filter names a channel or locale the PIM does not have",
  // The sync.
  SYNC_INCOMPLETE: "a sync that could not finish every collection",
  // Add-options runs.
  ADDED_OPTIONS_NOT_VISIBLE: "added options not yet visible in the PIM",
  RELIED_ON_REFUSED_REQUEST: "a request found an option present only because a refused request was adding it",
  // Upstreams (HttpError's codes).
  HTTP_STATUS: "an upstream answered with a non-success status",
  HTTP_REDIRECT: "an upstream answered 3xx: never followed, never a success",
  HTTP_TIMEOUT: "no (complete) answer in time",
  HTTP_NETWORK: "connection refused, reset, DNS",
  HTTP_RESPONSE_SHAPE: "an answer that does not match the expected schema",
  HTTP_FOREIGN_ORIGIN: "not sent: the URL left the configured origin",
  HTTP_PAUSED: "not sent: the upstream's budget is paused for longer than http.max_retry_after_ms (left to the job queue)",
  UPSTREAM_PAGING: "a list whose paging misbehaves (a repeated cursor or page, a wrong count)",
  // The Activation API.
  ACTIVATION_PROTOCOL: "the Activation API answered something it should not",
  ACTIVATION_NOT_CONFIGURED: "an Activation job on a worker whose config has no `activation`",
  ACTIVATION_UNKNOWN_CONNECTION: "a channel connection id the account does not have",
  OFFER_KEY_MISSING: "an offer without the configured `offers.key` field",
  // Redis and the project lock.
  REDIS_UNAVAILABLE: "Redis did not answer in time",
  REDIS_DEADLINE: "an HTTP route's Redis call did not answer within server.redis_timeout_ms",
  PROJECT_BUSY: "the project's lock is held by a job or another --once run",
  // The HTTP server.
  REQUEST_BODY_INVALID: "a request body that is not JSON, too large or of the wrong type",
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
