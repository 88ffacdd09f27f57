import { Worker, type Job, type Processor, type WorkerOptions } from "bullmq";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import type { ConcurrencyLimiter } from "../../infra/http/concurrency-limiter.js";

/**
 * A BullMQ Worker that moves a job to *active* only once it holds one of the process' job slots,
 * and gives the slot back when that job ends.
 *
 * Why: each project queue has its own Worker, and a process runs at most `worker.concurrency`
 * jobs. A plain Worker takes its job first and waits for a slot afterwards; a project runs one
 * job at a time across every process, so the job it holds cannot go to another process with a
 * free slot (two processes of concurrency 1: one ran both projects in turn, the other idled).
 *
 * Why this way, of the three ways the public sources offer:
 * - manual fetching (`getNextJob` across the project queues in turn) would leave lock renewal,
 *   stalled-job checks, cancellation on shutdown and the job events to be rewritten here, and
 *   would poll the queues instead of blocking on their markers;
 * - pausing and resuming the Workers with the free slots races: a Worker's blocking wait may be
 *   in flight when it is paused, and it moves the job to active when the wait returns;
 * - gating the one step that takes a job keeps everything else BullMQ's own: a Worker blocks on
 *   its queue's marker without a slot (an idle project holds none), then waits for a slot, then
 *   asks for the job. While it waits another process may take the job, which is the point.
 * One more step keeps the other processes informed: a queue's wake-up (its marker) reaches one
 * blocked Worker among all processes. When it reaches a process with no free slot, the Worker
 * passes it on (adds the marker again) before waiting for a slot, so that a Worker of the same
 * queue in a process with a free slot wakes and takes the job now rather than at its next
 * `drainDelay` poll (measured: without it, 4 processes of concurrency 2 used 0.27 of their slots).
 * Each Worker passes a wake-up on at most once per slot wait, so a busy cluster does not spin.
 * The gate overrides BullMQ's protected `moveToActive`. When a job ends, BullMQ can take the
 * queue's next job within the same call (one Redis round trip instead of three: the completion,
 * the wait for the queue's marker, the move to active); the gate lets it only when no other
 * Worker of this process waits for a slot, and the next job then inherits the ending job's slot
 * (BullMQ runs it under the same lock token). When one waits, the slot goes to it (first come,
 * first served), so a busy project never keeps a slot from the others. Measured on no-op jobs:
 * docs/benchmarks.md, queue overhead. test/integration/process/worker-slots.test.ts and
 * test/integration/worker/slot-handover.test.ts pin this when BullMQ is upgraded (protected
 * members may change between its versions).
 */
export class SlotGatedWorker extends Worker {
  private readonly slots: ConcurrencyLimiter;
  /** The connection BullMQ was given (shared, non-blocking): the wake-up is written with it. */
  private readonly redis: RedisClient;
  /** Slot releases of the jobs this worker took, by their lock token. */
  private readonly heldSlots = new Map<string, () => void>();
  /** Aborts a wait for a slot when the worker closes (close would otherwise wait for a slot). */
  private readonly closingSlots = new AbortController();

  /** Told when a token's run of jobs ends (its slot is released). */
  private readonly onRunEnded: ((token: string) => void) | undefined;

  constructor(
    name: string,
    processor: Processor,
    options: WorkerOptions & {
      readonly connection: RedisClient;
      readonly slots: ConcurrencyLimiter;
      readonly onRunEnded?: (token: string) => void;
    },
  ) {
    const { slots, onRunEnded, ...workerOptions } = options;
    // Not started here: the slots field must be set before the main loop asks for a job.
    super(name, processor, { ...workerOptions, autorun: false });
    this.slots = slots;
    this.onRunEnded = onRunEnded;
    this.redis = options.connection;
    if (options.autorun !== false)
      void this.run().catch((error: unknown) => this.emit("error", error instanceof Error ? error : new Error(String(error))));
  }

  protected override async moveToActive(token: string, name?: string): Promise<Job> {
    // A job that ended without completing (handed back, delayed) and was allowed to take the
    // next one: that one runs on the slot the token still holds (see processJob).
    if (this.heldSlots.has(token)) return super.moveToActive(token, name);
    if (this.slots.free === 0) await this.passOnWakeUp();
    let release: () => void;
    try {
      release = await this.slots.acquire(this.closingSlots.signal);
    } catch {
      // Closing: no job taken. BullMQ's own "no job" value (its declaration omits undefined).
      return this.nextJobFromJobData();
    }
    if (this.closing || this.paused) {
      release();
      return this.nextJobFromJobData();
    }
    try {
      const job = await super.moveToActive(token, name);
      // BullMQ returns undefined (typed as a Job) when the queue had nothing to give.
      if ((job as Job | undefined) === undefined) release();
      else this.heldSlots.set(token, release);
      return job;
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Best effort: a lost wake-up only delays the job to another Worker's next poll. */
  private async passOnWakeUp(): Promise<void> {
    try {
      // What BullMQ writes when a job becomes ready: member "0", score 0 ("look now").
      await this.redis.zadd(this.toKey("marker"), 0, "0");
    } catch (error) {
      this.emit("error", error instanceof Error ? error : new Error(String(error)));
    }
  }

  override async processJob(job: Job, token: string, fetchNext: () => boolean = () => true): Promise<void | Job> {
    let next: void | Job = undefined;
    try {
      next = await super.processJob(job, token, () => this.slots.waiting === 0 && fetchNext());
      return next;
    } finally {
      // BullMQ's "no job" may be undefined typed as a Job (see moveToActive).
      if ((next as Job | undefined) === undefined) {
        this.heldSlots.get(token)?.();
        this.heldSlots.delete(token);
        this.onRunEnded?.(token);
      }
    }
  }

  override async close(force = false): Promise<void> {
    this.closingSlots.abort(new Error("worker closing"));
    return super.close(force);
  }
}
