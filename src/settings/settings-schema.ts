import { z } from "zod";
import { activationSchema } from "../activation/activation-settings-schema.js";
import { clusterNodeProblems } from "./cluster-node-problems.js";

/**
 * The configuration file, as users write it. Key names are a promise to users: add, never
 * rename. Every object is strict so a typo is reported instead of silently ignored.
 */

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const nonEmpty = z.string().trim().min(1, "must not be empty");
const code = z.string().regex(/^[A-Za-z0-9_]+$/, "must be a PIM code (letters, digits, underscore)");
/** The name of a shared upstream budget (src/budgets/budget-identity.ts): it becomes part of Redis keys. */
/** Measured on the option-heavy catalogue: BENCHMARKS.md, peak RSS. */
const DEFAULT_HEAP_GROWING_PERCENT = 100;
const budgetName = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "letters, digits, '.', '_' and '-' only (at most 64)");
const localeCode = z.string().regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4})*$/, "must be a locale code such as en_US");

export const pimConnectionSchema = z.strictObject({
  url: httpUrl,
  client_id: nonEmpty,
  secret: nonEmpty,
  username: nonEmpty,
  password: nonEmpty,
  /** Akeneo: 4 requests in flight per connection, 100 req/s per instance, 3 req/s on option writes. */
  max_in_flight: z.int().min(1).max(10).default(4),
  requests_per_second: z.number().positive().max(1000).default(100),
  option_writes_per_second: z.number().positive().max(100).default(3),
  /** Names the instance's budget (100 req/s, 10 in flight, option writes) when URLs differ but the PIM counts them together. */
  instance_budget: budgetName.optional(),
  /** Names the connection's budget (in-flight calls) when credentials differ but the PIM counts them as one connection. */
  connection_budget: budgetName.optional(),
});

const serviceWithToken = z.strictObject({
  url: httpUrl,
  token: nonEmpty,
  requests_per_second: z.number().positive().max(100).default(10),
  /** Names the account's budget when credentials differ but the service counts them together. */
  budget: budgetName.optional(),
});

const serviceWithLogin = z.strictObject({
  url: httpUrl,
  email: z.email({ error: "must be an email address" }),
  password: nonEmpty,
  token_name: nonEmpty.default("pim-sync"),
  requests_per_second: z.number().positive().max(100).default(10),
  /** Names the account's budget when credentials differ but the service counts them together. */
  budget: budgetName.optional(),
});

export const serviceConnectionSchema = z.union([serviceWithToken, serviceWithLogin], {
  error: "needs either { url, token } or { url, email, password, token_name }",
});

export const namingSchema = z.strictObject({
  select: nonEmpty.default("{attribute}"),
  localizable: nonEmpty.default("{attribute}-{locale}"),
  scopable: nonEmpty.default("{attribute}-{channel}"),
  localizable_scopable: nonEmpty.default("{attribute}-{locale}-{channel}"),
  unit: nonEmpty.default("{attribute}-unit"),
  currency: nonEmpty.default("{attribute}-currency"),
});

export const deletionGuardSchema = z.strictObject({
  /** Hold back deletions that would remove more than this share of a collection... */
  max_fraction: z.number().min(0).max(1).default(0.5),
  /** ...and at least this many options. */
  min_count: z.int().min(1).default(10),
});

export const projectSchema = z.strictObject({
  id: z.int().positive(),
  pim: pimConnectionSchema,
  service: serviceConnectionSchema,
  channels: z.array(code).min(1).optional(),
  locales: z.array(localeCode).min(1).optional(),
  allowed_options_for_pim_attribute_addition: z.array(code).default([]),
  schedule: z
    .strictObject({
      cron: nonEmpty,
      timezone: nonEmpty.optional(),
    })
    .optional(),
  naming: namingSchema.default(namingSchema.parse({})),
  deletion_guard: deletionGuardSchema.default(deletionGuardSchema.parse({})),
});

export const workerSchema = z.strictObject({
  /** Jobs running at once in one worker process, across projects (one per project at most). */
  concurrency: z.int().min(1).max(64).default(4),
  /** On SIGTERM/SIGINT, how long active jobs may take to finish before they are left to stall. */
  shutdown_timeout_ms: z.int().min(0).default(30_000),
  /** BullMQ job lock: a worker that stops renewing it (killed, frozen) loses the job after this. */
  lock_duration_ms: z.int().min(1000).default(30_000),
  /**
   * How often a worker looks for jobs whose lock ran out. A killed worker's job is taken over
   * between lock/2 and lock + this interval after the kill; half the lock by default (lock and
   * interval each 30 s before made it 49–59 s).
   */
  stalled_interval_ms: z.int().min(1000).optional(),
  /** A job that stalls more often than this is failed, not retried forever. */
  max_stalled_count: z.int().min(0).default(1),
  /**
   * Scheduled syncs start at a stable per-project offset within this window after the cron's
   * time (src/jobs/schedule-offset.ts), so projects sharing a cron do not all start in the same
   * second; never more than the cron's shortest gap. 0 starts them on the cron's time.
   */
  schedule_jitter_ms: z.int().min(0).max(3_600_000).default(60_000),
  /** Upper bound on one sync job; it is aborted (and retried) after this. */
  sync_timeout_ms: z.int().min(1000).default(2 * 3600_000),
  add_options_timeout_ms: z.int().min(1000).default(10 * 60_000),
  /** Keep failed jobs this long for inspection and replay. */
  keep_failed_days: z.int().min(1).default(30),
  keep_completed_days: z.int().min(1).default(7),
  /**
   * How often a worker checks that each project queue still has its global concurrency of 1 and
   * its job scheduler (Redis may lose them: a restart without persistence), restoring what is
   * missing. Also checked whenever the Redis connection comes back.
   */
  safety_check_interval_ms: z.int().min(1000).default(60_000),
})
  .transform((worker) => ({ ...worker, stalled_interval_ms: worker.stalled_interval_ms ?? Math.max(1000, Math.floor(worker.lock_duration_ms / 2)) }));

export const triggerSchema = z.strictObject({
  /** Deprecated aliases of `server.host` / `server.port` (used when `server` does not set them). */
  host: nonEmpty.optional(),
  port: z.int().min(0).max(65535).optional(),
  /** Bearer token PIM-side triggers must send. */
  token: z.string().min(16, "must be at least 16 characters"),
});

export const adminUserSchema = z.strictObject({
  name: z.string().regex(/^[^:\s]+$/, "no colon or whitespace (HTTP Basic sends name:password)"),
  password: z.string().min(12, "must be at least 12 characters"),
  /** viewer: read-only; admin: may also retry, promote and clean jobs and enqueue syncs. */
  role: z.enum(["viewer", "admin"]),
  /** Accepted as `Authorization: Bearer <token>` instead of the password (for scripts). */
  token: z.string().min(16, "must be at least 16 characters").optional(),
});

/**
 * Failed logins (admin password or token, trigger token, metrics token), counted per client
 * address and per user name, per surface: after `max_failures` within `window_ms` the next
 * attempts are answered 429 until the window ends, without checking the credentials.
 */
export const authThrottleSchema = z.strictObject({
  max_failures: z.int().min(1).default(10),
  window_ms: z.int().min(1_000).default(15 * 60_000),
  /** At most one `authentication refused` warning per client address this often (the next one counts the ones left out). */
  log_interval_ms: z.int().min(0).default(60_000),
});

/** The worker's one HTTP listener: trigger routes, health checks, metrics, admin. */
export const serverSchema = z.strictObject({
  host: nonEmpty.optional(),
  port: z.int().min(0).max(65535).optional(),
  /** A request (headers and body) must arrive within this, or it is answered 408 and closed. */
  request_timeout_ms: z.int().min(100).default(30_000),
  /** The request headers must arrive within this. */
  headers_timeout_ms: z.int().min(100).default(10_000),
  /** Open connections beyond this are closed at once. */
  max_connections: z.int().min(1).default(256),
  /** A route that needs Redis answers 503 when Redis has not answered within this. */
  redis_timeout_ms: z.int().min(100).default(3_000),
  /** When set, `GET /metrics` needs it as a bearer token. */
  metrics_token: z.string().min(16, "must be at least 16 characters").optional(),
  auth_throttle: authThrottleSchema.default(authThrottleSchema.parse({})),
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
  /** How often to look for added options in the PIM (its reads are eventually consistent)... */
  visibility_attempts: z.int().min(1).max(20).default(5),
  /** ...and how long to wait between looks. */
  visibility_delay_ms: z.int().min(0).default(1_000),
  /** A sync never deletes options added through add-options this recently. */
  recent_addition_grace_ms: z.int().min(0).default(15 * 60_000),
  /** How long a worker reuses the PIM structure and the collection list between add-options jobs. */
  catalog_cache_ms: z.int().min(0).default(60_000),
  /**
   * A trigger request whose label locale the cached PIM structure lacks re-reads the structure
   * before it is refused, at most once per project in this interval (concurrent requests share
   * the read); refusals within it use that read. So a locale enabled in the PIM is accepted at
   * most this long after; 0 re-reads before every refusal. Bounded by `catalog_cache_ms`.
   */
  locale_recheck_ms: z.int().min(0).default(30_000),
});

const redisUrl = z.string().regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL");

/** `redis.cluster`: a Redis Cluster, reached through any of these startup nodes. */
export const redisClusterSchema = z.strictObject({
  nodes: z.array(redisUrl).min(1, "at least one startup node is needed"),
});

/**
 * One Redis (`url`) or a Redis Cluster (`cluster.nodes`), exactly one of the two. The nodes of
 * a cluster share one scheme and one user/password: ioredis connects to the nodes it discovers
 * (not listed here) with one set of options (see src/redis/cluster-options.ts).
 */
export const redisSchema = z
  .strictObject({
    url: redisUrl.optional(),
    cluster: redisClusterSchema.optional(),
    prefix: z.string().regex(/^[A-Za-z0-9_.-]+$/, "letters, digits, '.', '_' and '-' only").default("pim-sync"),
    /** How long a command waits for Redis before it gives up (exit 1); also each connect attempt's bound. */
    connect_timeout_ms: z.int().min(100).default(5_000),
  })
  .superRefine((redis, ctx) => {
    if (redis.url !== undefined && redis.cluster !== undefined) ctx.addIssue({ code: "custom", path: ["cluster"], message: "give either `redis.url` (one Redis) or `redis.cluster` (a Redis Cluster), not both" });
    if (redis.url === undefined && redis.cluster === undefined) ctx.addIssue({ code: "custom", path: ["url"], message: "needed (or `redis.cluster.nodes` for a Redis Cluster)" });
    if (redis.cluster) for (const problem of clusterNodeProblems(redis.cluster.nodes)) ctx.addIssue({ code: "custom", path: ["cluster", "nodes", problem.index], message: problem.message });
  });

/** The process's memory (src/memory/bound-heap-growth.ts), applied when a command loads its config. */
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

export const settingsSchema = z.strictObject({
    redis: redisSchema.optional(),
    state_dir: nonEmpty.default("./.pim-sync"),
    log_level: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    http: z
      .strictObject({
        timeout_ms: z.int().min(100).default(30_000),
        max_attempts: z.int().min(1).max(10).default(5),
        base_delay_ms: z.int().min(1).default(250),
        max_delay_ms: z.int().min(1).default(10_000),
        max_retry_after_ms: z.int().min(0).default(60_000),
      })
      .default({ timeout_ms: 30_000, max_attempts: 5, base_delay_ms: 250, max_delay_ms: 10_000, max_retry_after_ms: 60_000 }),
    worker: workerSchema.default(workerSchema.parse({})),
    /** Upstream budgets shared through Redis by every process and project (src/budgets/). */
    budgets: z
      .strictObject({
        /** A concurrency slot or an in-flight request a process holds is renewed every third of this; a killed process's expire after it. */
        lease_ms: z.int().min(1_000).max(60_000).default(5_000),
      })
      .default({ lease_ms: 5_000 }),
    memory: memorySchema.default(memorySchema.parse({})),
    server: serverSchema.optional(),
    trigger: triggerSchema.optional(),
    add_options: addOptionsSchema.default(addOptionsSchema.parse({})),
    /** May be empty in an Activation-only deployment (then `activation` is needed). */
    projects: z.array(projectSchema).default([]),
    /** The Activation API (issue 8): optional, the sync needs none of it. */
    activation: activationSchema.optional(),
  })
  .superRefine((settings, ctx) => {
    if (settings.projects.length === 0 && settings.activation === undefined) {
      ctx.addIssue({ code: "custom", path: ["projects"], message: "at least one project is needed (or an `activation` section, for an Activation-only deployment)" });
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
