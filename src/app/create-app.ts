import type { Logger } from "pino";
import type { ActivationRuntime } from "../features/activation/activation-runtime.js";
import type { HeldStore } from "../features/sync/held/held-store.js";
import type { HistoryStore } from "../stores/history/history-store.js";
import type { StateStore } from "../stores/state/state-store.js";
import type { ActivationQueue } from "../jobs/queues/activation-queue.js";
import type { JobCatalog } from "../jobs/catalog/job-catalog-of.js";
import type { JobHandlers } from "../jobs/catalog/job-handlers.js";
import type { JobQueues } from "../jobs/queues/job-queues.js";
import type { JsonKeyStyle } from "../core/json/json-key-style.js";
import type { ProjectRuntime } from "../features/project-runtime.js";
import type { EventPlatformSession } from "../features/events/event-platform-session.js";
import { closeRedis } from "../infra/redis/close-redis.js";
import { connectCommandRedis } from "../infra/redis/connect-command-redis.js";
import type { RedisClient } from "../infra/redis/redis-client.js";
import type { UpstreamBudgets } from "../infra/budgets/upstream-budgets.js";
import { findProject } from "../settings/find-project.js";
import { redisPrefixOf } from "../settings/redis-prefix-of.js";
import type { Settings } from "../settings/settings-schema.js";
import { createProjectLock, describeHolder } from "../stores/state/project-lock.js";
import type { OpenWorkerProcess } from "./worker-process.js";
import { createReleaseStack } from "./release-stack.js";
import { appQueues } from "./app-queues.js";

/**
 * What the app is for: a `command` connects the config's Redis with the bounded connector (a
 * Redis that is away ends it after `redis.connect_timeout_ms`); the `worker` with the
 * reconnecting connection it keeps through outages, and its `start()` opens the worker process.
 */
export type AppRole = "command" | "worker";

export interface AppOptions {
  readonly logger: Logger;
  /** A connected Redis the caller owns: used, never closed by the app. */
  readonly redis?: RedisClient;
  readonly role?: AppRole;
  /** A command's interruption (SIGINT/SIGTERM): ends the wait for Redis, and joins a project lock's signal. */
  readonly signal?: AbortSignal | undefined;
  /** The worker role's options: the answers' key style, and for benchmarks and tests the handlers or catalog. */
  readonly worker?: { readonly jsonKeys?: JsonKeyStyle; readonly handlers?: JobHandlers; readonly catalog?: JobCatalog };
}

export interface App {
  readonly settings: Settings;
  readonly logger: Logger;
  /**
   * The worker role: connects Redis and opens the worker process (its HTTP listener first; the
   * worker itself starts once Redis answers, see `worker().started`; when that start fails, what
   * it acquired is released by `stop()`). The command role: connects the config's Redis now
   * rather than at first use. When `start()` fails, what it acquired is released.
   */
  start(): Promise<void>;
  /** The config's Redis (undefined without `redis`), connected at the first call. */
  redis(): Promise<RedisClient | undefined>;
  /** One project's clients and stores, made at the first call; throws for a project not configured. */
  project(id: number): Promise<ProjectRuntime>;
  /** The PIM login and Event Platform client of one project (`events --create`), over a pool of its own. */
  eventPlatform(id: number): Promise<EventPlatformSession>;
  /** The Activation client and state; throws ActivationNotConfigured without `activation`. */
  activation(): Promise<ActivationRuntime>;
  /** The change history and the held plans (calls no upstream). */
  reviewStores(): Promise<{ readonly history: HistoryStore; readonly held: HeldStore }>;
  /** The projects' job queues; needs `redis` in the config. */
  jobQueues(): Promise<JobQueues>;
  /** The Activation queue (null without `activation`); needs `redis` in the config. */
  activationQueue(): Promise<ActivationQueue | null>;
  /**
   * Takes the project's lock, the one the worker takes around each job (ProjectBusy at once when
   * a job holds it), held until `stop()`. Resolves to the signal the run must obey: aborted when
   * the command is interrupted or the lock is lost. Without `redis` there is no lock to take.
   */
  lockProject(id: number, holder: string): Promise<AbortSignal | undefined>;
  /** The worker process opened by `start()` in the worker role. */
  worker(): OpenWorkerProcess;
  /**
   * Releases everything acquired, the last acquired first, each once; safe to call twice. In the
   * worker role this is the worker's stop: listener, jobs (drained within
   * `worker.shutdown_timeout_ms`, then aborted), queues, clients, Redis.
   */
  stop(): Promise<void>;
}

/**
 * The one composition root: the worker, the commands and the benchmarks build what they use
 * through it, and `stop()` releases it in the reverse order of acquisition (so the Redis it
 * connected closes last, after everything that used it).
 */
export function createApp(settings: Settings, options: AppOptions): App {
  const { logger } = options;
  const role = options.role ?? "command";
  const stack = createReleaseStack(logger);
  const memo = new Map<string, Promise<unknown>>();
  let worker: OpenWorkerProcess | null = null;
  /**
   * The worker's project runtimes, released together at the place on the stack the worker's
   * start gave them (before its queues and jobs): a runtime is made at its project's first job,
   * after the jobs were put on the stack, and must outlive them. Null outside the worker.
   */
  let workerRuntimes: { readonly made: ProjectRuntime[]; released: boolean } | null = null;
  // Told of every upstream answer of the worker's project clients once its metrics exist.
  let upstreamObserver: ((upstream: "pim" | "service", status: number | "error") => void) | null = null;

  /** Each resource once, whoever asks first; a failed acquisition is not retried. */
  function once<T>(key: string, acquire: () => Promise<T>): Promise<T> {
    const known = memo.get(key) as Promise<T> | undefined;
    if (known) return known;
    const acquired = acquire();
    memo.set(key, acquired);
    return acquired;
  }

  function redis(): Promise<RedisClient | undefined> {
    return once("redis", async () => {
      if (options.redis) return options.redis;
      const redisSettings = settings.redis;
      if (!redisSettings) return undefined;
      if (stack.released) throw new Error("the app is stopped");
      let connection: RedisClient;
      if (role === "worker") {
        // Loaded on demand: ioredis costs a command without Redis about 0.1 s of its start.
        const { createWorkerRedis } = await import("../infra/redis/create-worker-redis.js");
        connection = createWorkerRedis(redisSettings, logger);
      } else {
        connection = await connectCommandRedis(redisSettings, options.signal);
      }
      stack.push("Redis connection", () => closeRedis(connection));
      return connection;
    });
  }

  async function requireRedis(what: string): Promise<RedisClient> {
    const connection = await redis();
    if (!connection) throw new Error(`${what} needs \`redis\` in the config`);
    return connection;
  }

  async function startWorker(): Promise<void> {
    const connection = await requireRedis("the worker");
    // Loaded on demand: a command has no use for BullMQ or the HTTP server.
    const { openWorkerProcess } = await import("./worker-process.js");
    // The worker runs on this app's project runtimes, stores, budgets, queues and Activation
    // runtime, each made once, in this order (so released after the worker's jobs, which use
    // them). A project's runtime (its HTTP agents and clients) is made at its first job, not
    // here: a process of 1,000 projects would otherwise make 1,000 at start, most of them idle
    // for hours; they are released together, where this group is on the stack.
    const runtimes = { made: [] as ProjectRuntime[], released: false };
    workerRuntimes = runtimes;
    stack.push("project runtimes", async () => {
      runtimes.released = true;
      await Promise.all(runtimes.made.map((runtime) => runtime.close()));
    });
    const queues = await jobQueues();
    const queue = await activationQueue();
    const activationParts = queue ? { queue, runtime: await activation() } : null;
    // Each of the worker's own parts goes on this app's stack as it is acquired (its jobs, its
    // listener): `stop()` is the worker's stop, in the one order.
    worker = await openWorkerProcess({
      settings,
      logger,
      connection,
      resources: stack,
      runtimeOf: project,
      queues,
      activation: activationParts,
      review: await reviewStores(),
      state: await stateStore(),
      observeUpstreams: (observer) => {
        upstreamObserver = observer;
      },
      ...options.worker,
    });
  }

  /** One set of upstream budgets for the app: its projects take turns at each (src/infra/budgets/). */
  function upstreamBudgets(): Promise<UpstreamBudgets> {
    return once("upstream budgets", async () => {
      const connection = await redis();
      const { budgetsFor } = await import("../features/project-runtime.js");
      return budgetsFor(settings, logger, connection);
    });
  }

  function project(id: number): Promise<ProjectRuntime> {
    return once(`project ${id}`, async () => {
      const configured = findProject(settings, id);
      if (!configured) throw new Error(`project ${id} is not configured`);
      const connection = await redis();
      // Loaded on demand, as the queues are: the upstream clients (undici, the PIM and service
      // clients) are for the commands that call an upstream, not for `jobs` or `history`.
      const { createProjectRuntime } = await import("../features/project-runtime.js");
      const runtime = createProjectRuntime({
        settings,
        project: configured,
        logger,
        budgets: await upstreamBudgets(),
        review: await reviewStores(),
        stateStore: await stateStore(),
        ...(connection ? { redis: connection } : {}),
        ...(role === "worker" ? { onUpstreamResponse: (upstream, status) => upstreamObserver?.(upstream, status) } : {}),
      });
      if (!workerRuntimes) stack.push(`project ${id}'s runtime`, () => runtime.close());
      else if (workerRuntimes.released) {
        // Asked for while the worker stops, after its runtimes were released.
        await runtime.close();
        throw new Error(`project ${id}'s runtime was made after the worker's runtimes were released`);
      } else workerRuntimes.made.push(runtime);
      return runtime;
    });
  }

  /** What pim-sync last wrote, one store for every project (and the console's option labels). */
  function stateStore(): Promise<StateStore> {
    return once("state store", async () => {
      const connection = await redis();
      const { stateStoreOf } = await import("../stores/state/state-store-of.js");
      const state = stateStoreOf(settings, connection);
      stack.push("state store", () => state.close());
      return state;
    });
  }

  const { jobQueues, activationQueue } = appQueues({
    settings,
    logger,
    worker: role === "worker",
    catalog: options.worker?.catalog,
    stack,
    once,
    requireRedis,
  });

  function activation(): Promise<ActivationRuntime> {
    return once("activation", async () => {
      const connection = await redis();
      const { createActivationRuntime } = await import("../features/activation/activation-runtime.js");
      const runtime = createActivationRuntime({
        settings,
        logger,
        ...(connection ? { redis: connection } : {}),
        // The worker's Activation client counts with its projects' budgets; the commands keep a limiter of their own.
        ...(role === "worker" ? { budgets: await upstreamBudgets() } : {}),
      });
      stack.push("Activation runtime", () => runtime.close());
      return runtime;
    });
  }

  function reviewStores(): Promise<{ readonly history: HistoryStore; readonly held: HeldStore }> {
    // Stores on the shared connection or in files: nothing of their own to release.
    return once("review stores", async () => {
      const connection = await redis();
      const { reviewStoresOf } = await import("../features/sync/held/review-stores-of.js");
      return reviewStoresOf(settings, connection);
    });
  }

  return {
    settings,
    logger,
    async start() {
      try {
        if (role === "worker") await once("worker", startWorker);
        else await redis();
      } catch (error) {
        // Logged by the stack if a release fails too; the caller learns why the start failed.
        await stack.releaseAll().catch(() => undefined);
        throw error;
      }
    },
    redis,
    project,
    eventPlatform(id) {
      return once(`event platform ${id}`, async () => {
        const project = findProject(settings, id);
        if (!project) throw new Error(`project ${id} is not configured`);
        const { createEventPlatformSession } = await import("../features/events/event-platform-session.js");
        const session = createEventPlatformSession({ settings, project, logger });
        stack.push(`project ${id}'s Event Platform session`, () => session.close());
        return session;
      });
    },
    activation,
    reviewStores,
    jobQueues,
    activationQueue,
    async lockProject(id, holder) {
      const connection = await redis();
      if (!connection) return options.signal;
      const lock = createProjectLock(connection, redisPrefixOf(settings), { ttlMs: settings.worker.lock_duration_ms });
      const lease = await lock.tryAcquire(id, describeHolder(holder));
      stack.push(`project ${id}'s lock`, () => lease.release());
      return options.signal ? AbortSignal.any([options.signal, lease.signal]) : lease.signal;
    },
    worker() {
      if (!worker) throw new Error("the worker is not started (createApp with role 'worker', then start())");
      return worker;
    },
    stop: () => stack.releaseAll(),
  };
}
