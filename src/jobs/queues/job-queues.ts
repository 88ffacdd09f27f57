import { Queue, type BackendFactory, type RedisQueueBackend } from "bullmq";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import { DEFAULT_JOB_CATALOG, parseDataOf, type CatalogJobDefinition } from "../catalog/job-catalog.js";
import { idempotencyWindowSeconds, jobOptionsOf, type JobRetention } from "./job-options.js";
import type { JobCatalog, JobInputOf, QueueJobName } from "../catalog/job-catalog-of.js";
import type { AnyJobDefinition } from "../catalog/define-job.js";
import { enqueueJob, type EnqueueRequest, type EnqueueStatus, type EnqueueTarget } from "./enqueue-job.js";
import { DEFAULT_MAX_RETRY_AFTER_MS } from "../../settings/settings-schema.js";
import { keyspaceOf } from "../../infra/redis/keyspace.js";
import { spreadRepeatStrategy } from "./schedule-offset.js";
import { queueTelemetryOption } from "./queue-telemetry.js";
import { createSharedQueueBackend } from "./shared-queue-backend.js";

export interface EnqueuedJob {
  readonly project: number;
  /** The job that carries out the request; for `follows-running`, the running job it follows. */
  readonly jobId: string;
  /**
   * How the request was carried out (see enqueue-job.ts). For a sync, `merged` means its `full`
   * and `allow_mass_delete` were written into the waiting job before it started, and
   * `follows-running` that the follow-up carries the `full`/`allow_mass_delete` of every such request.
   */
  readonly status: EnqueueStatus;
  /** With `delayed`: when the job, waiting for its retry, runs (epoch ms). */
  readonly runsAt?: number;
}

/** Queues of the projects, for the jobs of the catalog `D` (the job catalog's list unless a test runs its own). */
export interface JobQueues<D extends AnyJobDefinition = CatalogJobDefinition> {
  queueFor(project: number): Queue;
  /** The queues' one BullMQ connection (shared-queue-backend.ts), for the Workers of these queues. */
  readonly backend: BackendFactory<RedisQueueBackend>;
  readonly projects: readonly number[];
  /**
   * Any job of a project queue, by its catalog name, with the data its entry's schema takes: a
   * name the catalog does not have, or of an Activation job, does not compile. The input is
   * parsed against the entry (JobDataError naming every wrong field; UnknownJobName for a name
   * the catalog does not have at run time), then queued as the entry's enqueue policy says. The
   * one way a project job is queued: the trigger routes, the admin API, the commands, PIM events
   * and the tests all come here (a `sync.events` job with `eventWindowDelay(window)` as its request).
   */
  enqueue<N extends QueueJobName<D, "project">>(name: N, input: JobInputOf<D, N>, request?: EnqueueRequest): Promise<EnqueuedJob>;
  /** One job at a time per project queue, across every worker (see queue-names.ts). */
  enforceOneJobPerProject(): Promise<void>;
  close(): Promise<void>;
}

/** Queues of the configured projects. Every job's data is validated here, before it is stored. */
export function createJobQueues<D extends AnyJobDefinition = CatalogJobDefinition>(args: {
  readonly connection: RedisClient;
  readonly prefix: string;
  readonly projects: readonly number[];
  readonly retention: JobRetention;
  /** Connection errors of the queues (without a listener BullMQ prints them with console.error). */
  readonly onError?: (error: Error) => void;
  /** Scheduled syncs spread over this window (schedule-offset.ts); the worker's, which writes the schedules. */
  readonly scheduleJitterMs?: number;
  /** The catalog's list, or in a test the list with an entry of its own. */
  readonly catalog?: JobCatalog<D>;
  /** `http.max_retry_after_ms`: a request never waits longer than this for a job's retry (join-retry-wait.ts); its default when left out. */
  readonly retryWaitCapMs?: number;
}): JobQueues<D> {
  const catalog: JobCatalog = args.catalog ?? DEFAULT_JOB_CATALOG;
  const keyspace = keyspaceOf(args.connection, args.prefix);
  const queues = new Map<number, Queue>();
  const shared = createSharedQueueBackend(args.connection, args.prefix, (error) => args.onError?.(error));
  for (const project of args.projects) {
    const settings =
      args.scheduleJitterMs === undefined ? {} : { settings: { repeatStrategy: spreadRepeatStrategy(project, args.scheduleJitterMs) } };
    const queue = new Queue(
      keyspace.projectQueue(project),
      // BullMQ writes a new Queue's meta (its version, the events stream's cap) when made: one
      // write per project in every process. The worker writes it with the global concurrency
      // instead (enforceOneJobPerProject), one write per project per worker start.
      { connection: args.connection, prefix: args.prefix, skipMetasUpdate: true, ...settings, ...queueTelemetryOption() },
      shared.factory,
    );
    // The commands waiting on Redis see the failure themselves; this only keeps it off the console.
    queue.on("error", (error) => args.onError?.(error));
    queues.set(project, queue);
  }

  function queueFor(project: number): Queue {
    const queue = queues.get(project);
    if (!queue) throw new Error(`project ${project} is not configured`);
    return queue;
  }

  // A key outlives its job's retention: a redelivery after the job was removed is still a duplicate.
  const idempotencyTtlSeconds = idempotencyWindowSeconds(args.retention);

  async function enqueue(name: string, input: unknown, request: EnqueueRequest = {}): Promise<EnqueuedJob> {
    const entry = catalog.entry(name, "project");
    const data = parseDataOf(name, entry.schema, input) as { readonly project: number };
    const target: EnqueueTarget = {
      queue: queueFor(data.project),
      redis: args.connection,
      keyspace,
      // Keys of a project's jobs share the project's space: the trigger route prefixes them with the project.
      idempotencyKeyOf: (_jobName, digest) => keyspace.projectKey(data.project, "idempotency", digest),
      refOf: (jobId) => `${data.project}/${jobId}`,
      idempotencyTtlSeconds,
      retryWaitCapMs: args.retryWaitCapMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
    };
    const queued = await enqueueJob(entry, data, target, jobOptionsOf(entry, args.retention), request);
    return { project: data.project, ...queued };
  }

  return {
    queueFor,
    backend: shared.factory,
    projects: args.projects,
    enqueue,
    async enforceOneJobPerProject() {
      await Promise.all([...queues.values()].map((queue) => queue.getBackend().setQueueMeta({ ...queue.metaValues, concurrency: 1 })));
    },
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      await shared.close();
    },
  };
}
