import { z } from "zod";
import { PARSED_ONCE } from "./parsed-once.js";
import { DELETION_RECORD_MS } from "../core/reconcile/deletion-guard.js";
import { activationSchema } from "./activation-settings-schema.js";
import { pimEventsSchema } from "./pim-events-settings-schema.js";
import { redisSchema } from "./redis-settings-schema.js";
import { secret } from "./secret.js";
import { DEFAULT_HISTORY_SETTINGS, historySettingsSchema } from "./history-settings-schema.js";
import { DEFAULT_HELD_SETTINGS, heldSettingsSchema } from "./held-settings-schema.js";
import { DEFAULT_EVENT_PLATFORM_SETTINGS, eventPlatformSettingsSchema } from "./event-platform-settings-schema.js";

/**
 * The configuration file, as users write it. Key names are a promise to users: add, never
 * rename. Every object is strict so a typo is reported instead of silently ignored.
 */

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const nonEmpty = z.string().trim().min(1, "must not be empty");
const code = z.string().regex(/^[A-Za-z0-9_]+$/, "must be a PIM code (letters, digits, underscore)");
/** Measured on the option-heavy catalogue: docs/benchmarks.md, peak RSS. */
const DEFAULT_HEAP_GROWING_PERCENT = 100;
/** The name of a shared upstream budget (src/infra/budgets/budget-identity.ts): it becomes part of Redis keys. */
const budgetName = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "letters, digits, '.', '_' and '-' only (at most 64)");
const localeCode = z.string().regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4})*$/, "must be a locale code such as en_US");

export const pimConnectionSchema = z.strictObject({
  url: httpUrl.describe("the PIM's base URL (Akeneo connection)"),
  client_id: secret(nonEmpty).describe("the Akeneo API connection's client id"),
  secret: secret(nonEmpty).describe("the Akeneo API connection's secret"),
  username: secret(nonEmpty).describe("the Akeneo API connection's user name"),
  password: secret(nonEmpty).describe("the Akeneo API connection's password"),
  max_in_flight: z
    .int()
    .min(1)
    .max(10)
    .default(4)
    .describe("calls in flight at once on the API connection (Akeneo allows 4 per connection)"),
  requests_per_second: z
    .number()
    .positive()
    .max(1000)
    .default(100)
    .describe("requests per second to the PIM instance (Akeneo's per-instance budget)"),
  option_writes_per_second: z
    .number()
    .positive()
    .max(100)
    .default(3)
    .describe("option writes per second (Akeneo's budget on option writes)"),
  instance_budget: budgetName
    .optional()
    .describe(
      "names the PIM instance's shared budget, for projects whose URLs differ but which the PIM counts together (letters, digits, `.`, `_`, `-`); derived from the URL when left out",
    ),
  connection_budget: budgetName
    .optional()
    .describe(
      "names the API connection's shared budget, for projects whose credentials differ but which the PIM counts as one connection; derived from URL, client id and user name when left out",
    ),
  events: pimEventsSchema
    .optional()
    .describe("the Event Platform subscription that triggers targeted syncs (docs/pim-events.md); without it, only the schedule"),
});

/** The service's connection pool: a handful of sockets is plenty at 10 req/s and keeps latency from serialising writes. */
const serviceMaxInFlight = z.int().min(1).max(64).default(8);

const serviceWithToken = z.strictObject({
  url: httpUrl.describe("the configuration service's base URL"),
  token: secret(nonEmpty).describe("the service's API token (give either `token`, or `email` + `password` to obtain one)"),
  requests_per_second: z.number().positive().max(100).default(10).describe("requests per second to the service (its fair-usage limit)"),
  max_in_flight: serviceMaxInFlight.describe("calls in flight at once to the service, per project (the sockets of its connection pool)"),
  budget: budgetName
    .optional()
    .describe(
      "names the service account's shared budget, for projects whose credentials differ but which the service counts as one account; derived from URL and token or email when left out",
    ),
});

const serviceWithLogin = z.strictObject({
  url: httpUrl,
  email: z
    .email({ error: "must be an email address" })
    .describe("log in with this email and `password` to obtain a token (instead of `token`)"),
  password: secret(nonEmpty).describe("the service login's password (with `email`)"),
  token_name: nonEmpty.default("pim-sync").describe("the name of the token the login obtains"),
  requests_per_second: z.number().positive().max(100).default(10),
  max_in_flight: serviceMaxInFlight,
  /** Names the account's budget when credentials differ but the service counts them together. */
  budget: budgetName.optional(),
});

export const serviceConnectionSchema = z.union([serviceWithToken, serviceWithLogin], {
  error: "needs either { url, token } or { url, email, password, token_name }",
});

export const namingSchema = z.strictObject({
  select: nonEmpty
    .default("{attribute}")
    .describe(
      "collection name of a select, reference-entity attribute that is neither localizable nor scopable (`{attribute}`, `{locale}`, `{channel}` are replaced)",
    ),
  localizable: nonEmpty.default("{attribute}-{locale}").describe("collection name per enabled locale of a localizable attribute"),
  scopable: nonEmpty.default("{attribute}-{channel}").describe("collection name per channel of a scopable attribute"),
  localizable_scopable: nonEmpty
    .default("{attribute}-{locale}-{channel}")
    .describe("collection name per channel and channel locale of a localizable and scopable attribute"),
  unit: nonEmpty.default("{attribute}-unit").describe("collection of a metric attribute's units"),
  currency: nonEmpty.default("{attribute}-currency").describe("collection of a price attribute's currencies"),
});

/** `http.max_retry_after_ms`'s default, for the queues opened without settings (tests, benchmarks). */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

export const deletionGuardSchema = z.strictObject({
  max_fraction: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe(
      "deletions that would remove more than this share of a collection's last-written options are held back (exit 3) unless `--allow-mass-delete`...",
    ),
  min_count: z
    .int()
    .min(1)
    .default(10)
    .describe("...and at least this many options (an empty read that would delete everything is always held)"),
  window_ms: z
    .int()
    .min(0)
    .max(DELETION_RECORD_MS, { message: `at most ${DELETION_RECORD_MS} (30 days): deletion records are kept that long, no longer` })
    .default(86_400_000)
    .describe(
      "the guard counts a collection's deletions over this long, across runs, on Redis' clock (`TIME`, so workers whose clocks differ count alike): a removal that arrives a few options at a time (PIM events) is held as soon as the total crosses the guard; an approved plan or `--allow-mass-delete` starts the count again; 0 counts each run alone; at most 30 days, as long as the deletion records are kept",
    ),
});

export const projectSchema = z.strictObject({
  id: z.int().positive().describe("the configuration-service project id (unique)"),
  pim: pimConnectionSchema,
  service: serviceConnectionSchema,
  channels: z.array(code).min(1).optional().describe("channel filter (PIM channel codes); all channels when left out"),
  locales: z.array(localeCode).min(1).optional().describe("locale filter (`en_US` or `en-US`); all enabled locales when left out"),
  allowed_options_for_pim_attribute_addition: z.array(code).default([]).describe("attribute codes open to add-options jobs"),
  schedule: z
    .strictObject({
      cron: nonEmpty.describe(
        "the worker's sync schedule: a 5-field cron (or 6 with seconds first); checked when the config loads (see Cron expressions below). Required in a `schedule`; a project without `schedule` is synced only when asked (trigger, PIM event, `enqueue sync`), and the worker warns of it at start-up: the schedule is the safety net for lost events",
      ),
      timezone: nonEmpty.optional().describe("an IANA time zone for the cron; the server's when left out"),
    })
    .optional(),
  naming: namingSchema.default(namingSchema.parse({}, PARSED_ONCE)),
  deletion_guard: deletionGuardSchema.default(deletionGuardSchema.parse({}, PARSED_ONCE)),
});

export const workerSchema = z
  .strictObject({
    concurrency: z
      .int()
      .min(1)
      .max(64)
      .default(4)
      .describe("jobs running at once in one worker process, across projects (one per project at most)"),
    shutdown_timeout_ms: z
      .int()
      .min(0)
      .default(30_000)
      .describe("after SIGTERM/SIGINT, how long active jobs may take to finish before they are handed back to the queue"),
    lock_duration_ms: z
      .int()
      .min(1000)
      .default(30_000)
      .describe("BullMQ's job lock: a worker that stops renewing it (killed, frozen) loses the job after this"),
    // Half the lock by default: lock and interval each 30 s made a takeover take 49–59 s.
    stalled_interval_ms: z
      .int()
      .min(1000)
      .optional()
      .describe(
        "how often a worker looks for jobs whose lock ran out; half of `lock_duration_ms` when left out. A killed worker's job is taken over between lock/2 and lock + this interval after the kill (15–45 s by default)",
      ),
    max_stalled_count: z.int().min(0).default(1).describe("a job that stalls more often than this is failed, not retried forever"),
    schedule_jitter_ms: z
      .int()
      .min(0)
      .max(3_600_000)
      .default(60_000)
      .describe(
        "scheduled syncs start at a stable per-project offset within this window after the cron's time (never as long as the cron's shortest gap), so projects sharing a cron do not all start in the same second; 0 starts them on the cron's time",
      ),
    sync_timeout_ms: z
      .int()
      .min(1000)
      .default(2 * 3600_000)
      .describe("upper bound on one sync job: it is aborted (and retried) after this"),
    add_options_timeout_ms: z
      .int()
      .min(1000)
      .default(10 * 60_000)
      .describe("upper bound on one add-options job"),
    keep_failed_days: z.int().min(1).default(30).describe("failed jobs are kept this long for inspection and replay"),
    keep_completed_days: z
      .int()
      .min(1)
      .default(7)
      .describe(
        "completed jobs are kept this long (and at most 1,000 per project); a job's final status outlives them for the idempotency window",
      ),
    // Redis may lose both (a restart without persistence) and BullMQ does not write them again.
    safety_check_interval_ms: z
      .int()
      .min(1000)
      .default(60_000)
      .describe(
        "how often a worker checks that each project queue still has its global concurrency of 1 and its schedule in Redis, as its config gives them, restoring or replacing them (also on every reconnection)",
      ),
  })
  .transform((worker) => ({
    ...worker,
    stalled_interval_ms: worker.stalled_interval_ms ?? Math.max(1000, Math.floor(worker.lock_duration_ms / 2)),
  }));

export const triggerSchema = z.strictObject({
  host: nonEmpty.optional().describe("deprecated alias of `server.host`, read when `server` does not set it (logged as a deprecated key)"),
  port: z.int().min(0).max(65535).optional().describe("deprecated alias of `server.port`"),
  token: secret(z.string().min(16, "must be at least 16 characters")).describe(
    "the bearer token of the trigger routes (`/v1/...`, at least 16 characters); the routes are off without `trigger`",
  ),
});

export const adminUserSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[^:\s]+$/, "no colon or whitespace (HTTP Basic sends name:password)")
    .describe("an admin user's name (no colon or whitespace)"),
  password: secret(z.string().min(12, "must be at least 12 characters")).describe("its password (at least 12 characters; HTTP Basic)"),
  role: z.enum(["viewer", "admin"]).describe("`viewer` (reads only) or `admin` (may also retry, promote and clean jobs and enqueue syncs)"),
  token: secret(z.string().min(16, "must be at least 16 characters"))
    .optional()
    .describe("a bearer token for scripts, instead of the password (at least 16 characters)"),
});

/**
 * Failed logins (admin password or token, trigger token, metrics token), counted per client
 * address and per user name, per surface: after `max_failures` within `window_ms` the next
 * attempts are answered 429 until the window ends, without checking the credentials.
 */
export const authThrottleSchema = z.strictObject({
  max_failures: z
    .int()
    .min(1)
    .default(10)
    .describe(
      "failed logins (admin password or token, trigger token, metrics token) allowed per client address and per user name within the window, counted from the first failure; further attempts get 429 with `Retry-After` until the window ends",
    ),
  window_ms: z
    .int()
    .min(1_000)
    .default(15 * 60_000)
    .describe("the failed-login window"),
  log_interval_ms: z
    .int()
    .min(0)
    .default(60_000)
    .describe(
      "at most one `authentication refused` warning, and one `bad request refused` warning, per client address this often; the next line counts the ones left out (0: every refusal)",
    ),
});

/**
 * Where the listener binds when neither `server` nor its deprecated alias `trigger` names it. Not
 * a `.default()`: the alias is only read when `server` leaves the key out (src/server/http/listen-settings.ts).
 */
export const SERVER_LISTEN_DEFAULTS = { host: "127.0.0.1", port: 8090 } as const;

/** The worker's one HTTP listener: trigger routes, health checks, metrics, admin. */
export const serverSchema = z.strictObject({
  host: nonEmpty
    .optional()
    .describe(
      `the address of the worker's one HTTP listener (health checks, metrics, trigger routes, admin); ${SERVER_LISTEN_DEFAULTS.host} when left out; served when \`server\` or \`trigger\` is configured`,
    ),
  port: z
    .int()
    .min(0)
    .max(65535)
    .optional()
    .describe(`its port (0 picks a free one, logged); ${SERVER_LISTEN_DEFAULTS.port} when left out`),
  request_timeout_ms: z
    .int()
    .min(100)
    .default(30_000)
    .describe("a request (headers and body) that has not fully arrived in this time is answered 408 and its connection closed"),
  headers_timeout_ms: z.int().min(100).default(10_000).describe("the request headers must arrive within this"),
  max_connections: z.int().min(1).default(256).describe("connections beyond this are closed at once"),
  redis_timeout_ms: z
    .int()
    .min(100)
    .default(3_000)
    .describe("a route that needs Redis answers 503 (`Retry-After: 5`) when Redis has not answered within this, instead of hanging"),
  metrics_token: secret(z.string().min(16, "must be at least 16 characters"))
    .optional()
    .describe("when set, `GET /metrics` needs it as a bearer token (at least 16 characters)"),
  auth_throttle: authThrottleSchema.default(authThrottleSchema.parse({}, PARSED_ONCE)),
  /** The job dashboard (`/admin`) and admin API (`/admin/api`); not served at all without it. */
  admin: z
    .strictObject({
      users: z
        .array(adminUserSchema)
        .min(1, "at least one user is needed")
        .refine((users) => new Set(users.map((user) => user.name)).size === users.length, "user names must be unique"),
    })
    .optional(),
});

export const addOptionsSchema = z.strictObject({
  visibility_attempts: z
    .int()
    .min(1)
    .max(20)
    .default(5)
    .describe("how often an add-options job looks for the added options in the PIM (its reads are eventually consistent)..."),
  visibility_delay_ms: z.int().min(0).default(1_000).describe("...and how long it waits between looks"),
  recent_addition_grace_ms: z
    .int()
    .min(0)
    .default(15 * 60_000)
    .describe("syncs never delete options added through add-options this recently"),
  catalog_cache_ms: z
    .int()
    .min(0)
    .default(60_000)
    .describe(
      "a worker reuses the PIM structure and the collection list this long between add-options jobs (a fresh read is made before rejecting anything)",
    ),
  locale_recheck_ms: z
    .int()
    .min(0)
    .default(30_000)
    .describe(
      "a trigger request whose label locale the cached PIM structure lacks re-reads the structure before it is refused, at most once per project in this interval (concurrent requests share the read); 0 re-reads before every refusal; bounded by `catalog_cache_ms`",
    ),
});

/** The process's memory (src/infra/memory/bound-heap-growth.ts), applied when a command loads its config. */
export const memorySchema = z.strictObject({
  heap_growing_percent: z
    .int()
    .min(0)
    .max(400)
    .default(DEFAULT_HEAP_GROWING_PERCENT)
    .describe(
      "How far the JavaScript heap may grow past the data the last full garbage collection kept alive, in percent, before the next one. " +
        "Lower keeps the process's memory (RSS) closer to its live data for more GC time; 0 leaves V8's default, which lets the heap grow to about 4 times its live data on a machine with several GB.",
    ),
});

export const settingsSchema = z
  .strictObject({
    redis: redisSchema.optional(),
    state_dir: nonEmpty.default("./.pim-sync").describe("state folder for `--once` without Redis (relative to the working directory)"),
    log_level: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
      .default("info")
      .describe("pino level; logs go to stderr as JSON, secrets redacted"),
    http: z
      .strictObject({
        timeout_ms: z.int().min(100).default(30_000).describe("per upstream request"),
        max_attempts: z
          .int()
          .min(1)
          .max(10)
          .default(5)
          .describe("attempts per upstream request, the first included (transient failures only)"),
        base_delay_ms: z.int().min(1).default(250).describe("first retry delay: exponential backoff with full jitter..."),
        max_delay_ms: z.int().min(1).default(10_000).describe("...up to this"),
        max_retry_after_ms: z
          .int()
          .min(0)
          .default(DEFAULT_MAX_RETRY_AFTER_MS)
          .describe(
            "a longer `Retry-After` is not waited for in-process: the run fails as transient (a job is delayed by it); " +
              "also the longest pause a 429 sets on its shared upstream budget, and a request that meets a longer pause there is not sent but fails the same way",
          ),
      })
      // prefault: the section left out is parsed as {}, so the defaults above are the only ones.
      .prefault({}),
    worker: workerSchema.default(workerSchema.parse({}, PARSED_ONCE)),
    /** Upstream budgets shared through Redis by every process and project (src/infra/budgets/). */
    budgets: z
      .strictObject({
        lease_ms: z
          .int()
          .min(1_000)
          .max(60_000)
          .default(5_000)
          .describe(
            "a concurrency slot or an in-flight request a process holds in a shared upstream budget is renewed every third of this; a killed process's expire after it",
          ),
      })
      .prefault({}),
    memory: memorySchema.prefault({}),
    server: serverSchema.optional(),
    trigger: triggerSchema.optional(),
    add_options: addOptionsSchema.default(addOptionsSchema.parse({}, PARSED_ONCE)),
    history: historySettingsSchema.default(DEFAULT_HISTORY_SETTINGS),
    held_deletions: heldSettingsSchema.default(DEFAULT_HELD_SETTINGS),
    /** May be empty in an Activation-only deployment (then `activation` is needed). */
    projects: z.array(projectSchema).default([]),
    /** The Activation API (issue 8): optional, the sync needs none of it. */
    activation: activationSchema.optional(),
    /** The Event Platform's API, for `pim-sync events --create` only (issue 21). */
    event_platform: eventPlatformSettingsSchema.default(DEFAULT_EVENT_PLATFORM_SETTINGS),
  })
  .superRefine((settings, ctx) => {
    if (settings.projects.length === 0 && settings.activation === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["projects"],
        message: "at least one project is needed (or an `activation` section, for an Activation-only deployment)",
      });
    }
  });

export type Settings = z.infer<typeof settingsSchema>;
export type RedisSettings = NonNullable<Settings["redis"]>;
export type WorkerSettings = z.infer<typeof workerSchema>;
export type ServerSettings = z.infer<typeof serverSchema>;
export type AdminUser = z.infer<typeof adminUserSchema>;
export type AuthThrottleSettings = z.infer<typeof authThrottleSchema>;
export type ProjectSettings = z.infer<typeof projectSchema>;
export type PimConnectionSettings = z.infer<typeof pimConnectionSchema>;
export type ServiceConnectionSettings = z.infer<typeof serviceConnectionSchema>;
