import { Queue, type JobsOptions } from "bullmq";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import { DEFAULT_JOB_CATALOG, parseDataOf, type ActivationJobName, type CatalogJobDefinition } from "../catalog/job-catalog.js";
import { idempotencyWindowSeconds, jobOptionsOf, type JobRetention } from "./job-options.js";
import type { JobCatalog, JobInputOf, QueueJobName } from "../catalog/job-catalog-of.js";
import type { AnyJobDefinition } from "../catalog/define-job.js";
import { enqueueJob, type EnqueueRequest, type EnqueueStatus } from "./enqueue-job.js";
import { ACTIVATION_QUEUE } from "../../infra/redis/queue-names.js";
import { DEFAULT_MAX_RETRY_AFTER_MS } from "../../settings/settings-schema.js";
import { keyspaceOf } from "../../infra/redis/keyspace.js";
import { queueTelemetryOption } from "./queue-telemetry.js";

/**
 * Every Activation job runs on one queue, `activation`, with a global concurrency of 1 across
 * all workers (the project-queue pattern). Why one queue rather than one per connection:
 * - the connection set is dynamic (`connections: all` is the API's list), while a per-connection
 *   queue needs a BullMQ worker created for it;
 * - the API budget (`requests_per_second`, no published limit) belongs to the one PIM
 *   connection/token every channel connection shares, so running one job at a time across all
 *   workers keeps to it without a distributed limiter;
 * - pulls are short (a few pages); a pull never overlaps another pull, of any connection.
 */
export { ACTIVATION_QUEUE };

export interface ActivationEnqueued {
  /** `activation/<id>`, as \`jobs list\` prints it. */
  readonly ref: string;
  readonly jobId: string;
  /** As for syncs and add-options: queued, merged, follows-running (pulls), duplicate (Idempotency-Key). */
  readonly status: EnqueueStatus;
  /** With `delayed`: when the job, waiting for its retry, runs (epoch ms). */
  readonly runsAt?: number;
}

export interface ActivationQueue<D extends AnyJobDefinition = CatalogJobDefinition> {
  readonly queue: Queue;
  /**
   * Any Activation job, by its catalog name, with the data its entry's schema takes: a name the
   * catalog does not have, or of a project job, does not compile. The input is parsed against
   * the entry (JobDataError naming every wrong field; UnknownJobName for a name the catalog does
   * not have at run time), then queued as the entry's enqueue policy says: a pull of one
   * connection has one running and at most one waiting per connection.
   */
  enqueue<N extends QueueJobName<D, "activation">>(name: N, input: JobInputOf<D, N>, request?: EnqueueRequest): Promise<ActivationEnqueued>;
  /** The options every Activation job is created with (retry policy and bounded retention). */
  jobOptions(name: ActivationJobName): JobsOptions;
  enforceOneAtATime(): Promise<void>;
  close(): Promise<void>;
}

export function createActivationQueue<D extends AnyJobDefinition = CatalogJobDefinition>(args: {
  readonly connection: RedisClient;
  readonly prefix: string;
  readonly retention: JobRetention;
  /** Connection errors of the queue (without a listener BullMQ prints them with console.error). */
  readonly onError?: (error: Error) => void;
  /** The catalog's list, or in a test the list with an entry of its own. */
  readonly catalog?: JobCatalog<D>;
  /** `http.max_retry_after_ms`: a request never waits longer than this for a job's retry (join-retry-wait.ts); its default when left out. */
  readonly retryWaitCapMs?: number;
}): ActivationQueue<D> {
  const catalog: JobCatalog = args.catalog ?? DEFAULT_JOB_CATALOG;
  const keyspace = keyspaceOf(args.connection, args.prefix);
  const queue = new Queue(keyspace.activationQueue, { connection: args.connection, prefix: args.prefix, ...queueTelemetryOption() });
  queue.on("error", (error) => args.onError?.(error));

  const target = {
    queue,
    redis: args.connection,
    keyspace,
    idempotencyKeyOf: (jobName: string, digest: string) => keyspace.activationKey("idempotency", jobName, digest),
    refOf: (jobId: string) => `${ACTIVATION_QUEUE}/${jobId}`,
    idempotencyTtlSeconds: idempotencyWindowSeconds(args.retention),
    retryWaitCapMs: args.retryWaitCapMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
  };

  async function enqueue(name: string, input: unknown, request: EnqueueRequest = {}): Promise<ActivationEnqueued> {
    const entry = catalog.entry(name, "activation");
    const queued = await enqueueJob(entry, parseDataOf(name, entry.schema, input), target, jobOptionsOf(entry, args.retention), request);
    return { ...queued, ref: target.refOf(queued.jobId) };
  }

  return {
    queue,
    enqueue,
    jobOptions: (name: ActivationJobName) => jobOptionsOf(catalog.entry(name, "activation"), args.retention),
    async enforceOneAtATime() {
      await queue.setGlobalConcurrency(1);
    },
    close: () => queue.close(),
  };
}
