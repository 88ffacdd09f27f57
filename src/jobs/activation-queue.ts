import { Queue, type JobsOptions } from "bullmq";
import type { RedisClient } from "../redis/redis-client.js";
import { addJobOnce } from "./idempotency-keys.js";
import { parseJobData, type ActivationJobName } from "./job-catalog.js";
import { idempotencyWindowSeconds, jobOptionsFor, type JobRetention } from "./job-options.js";
import { ACTIVATION_QUEUE } from "../redis/queue-names.js";
import { keyspaceOf } from "../redis/keyspace.js";
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
  readonly status: "queued" | "merged" | "follows-running" | "duplicate";
}

export const pullDeduplicationId = (connection: string): string => `activation-pull-${connection}`;

export interface ActivationQueue {
  readonly queue: Queue;
  /** A pull of one connection: one running and at most one waiting per connection. */
  enqueuePull(input: Readonly<Record<string, unknown>>): Promise<ActivationEnqueued>;
  enqueueOffers(input: Readonly<Record<string, unknown>>, options?: { readonly idempotencyKey?: string | undefined }): Promise<ActivationEnqueued>;
  enqueueShipment(input: Readonly<Record<string, unknown>>, options?: { readonly idempotencyKey?: string | undefined }): Promise<ActivationEnqueued>;
  /** A re-send of set-aside orders (`{connection, order_ids?}`). */
  enqueueResend(input: Readonly<Record<string, unknown>>): Promise<ActivationEnqueued>;
  /** The options every Activation job is created with (retry policy and bounded retention). */
  jobOptions(name: ActivationJobName): JobsOptions;
  enforceOneAtATime(): Promise<void>;
  close(): Promise<void>;
}

export function createActivationQueue(args: {
  readonly connection: RedisClient;
  readonly prefix: string;
  readonly retention: JobRetention;
  /** Connection errors of the queue (without a listener BullMQ prints them with console.error). */
  readonly onError?: (error: Error) => void;
}): ActivationQueue {
  const keyspace = keyspaceOf(args.connection, args.prefix);
  const queue = new Queue(keyspace.activationQueue, { connection: args.connection, prefix: args.prefix, ...queueTelemetryOption() });
  queue.on("error", (error) => args.onError?.(error));

  const baseOptions = (name: ActivationJobName): JobsOptions => jobOptionsFor(name, args.retention);
  const idempotencyKeySeconds = idempotencyWindowSeconds(args.retention);

  const result = (jobId: string, status: ActivationEnqueued["status"]): ActivationEnqueued => ({ jobId, status, ref: `${ACTIVATION_QUEUE}/${jobId}` });

  /** Repeated deliveries with one Idempotency-Key become one job (see idempotency-keys.ts). */
  async function addOnce(name: ActivationJobName, data: unknown, idempotencyKey: string | undefined): Promise<ActivationEnqueued> {
    if (idempotencyKey === undefined) {
      const job = await queue.add(name, data, baseOptions(name));
      return result(job.id ?? "", "queued");
    }
    const added = await addJobOnce({
      redis: args.connection,
      keyOf: (digest) => keyspace.activationKey("idempotency", name, digest),
      idempotencyKey,
      queue,
      name,
      data,
      options: baseOptions(name),
      jobIdPrefix: "act-",
      ttlSeconds: idempotencyKeySeconds,
      refOf: (jobId) => `${ACTIVATION_QUEUE}/${jobId}`,
    });
    return result(added.jobId, added.status);
  }

  return {
    queue,
    async enqueuePull(input) {
      const data = parseJobData("activation.orders.pull", input);
      const dedupId = pullDeduplicationId(data.connection);
      const existingId = await queue.getDeduplicationJobId(dedupId);
      const existing = existingId ? await queue.getJob(existingId) : undefined;
      const state = existing ? await existing.getState() : undefined;
      if (existing && (state === "waiting" || state === "delayed" || state === "prioritized")) return result(existing.id ?? "", "merged");
      const job = await queue.add("activation.orders.pull", data, { ...baseOptions("activation.orders.pull"), deduplication: { id: dedupId, keepLastIfActive: true } });
      if (existing && state === "active") return result(existing.id ?? "", "follows-running");
      return result(job.id ?? "", "queued");
    },
    enqueueOffers: (input, options = {}) => addOnce("activation.offers.put", parseJobData("activation.offers.put", input), options.idempotencyKey),
    enqueueShipment: (input, options = {}) => addOnce("activation.shipment.update", parseJobData("activation.shipment.update", input), options.idempotencyKey),
    enqueueResend: (input) => addOnce("activation.orders.resend", parseJobData("activation.orders.resend", input), undefined),
    jobOptions: baseOptions,
    async enforceOneAtATime() {
      await queue.setGlobalConcurrency(1);
    },
    close: () => queue.close(),
  };
}
