import {
  createRedisBackend,
  Worker,
  type BackendFactory,
  type Job,
  type Processor,
  type RedisQueueBackend,
  type WorkerOptions,
} from "bullmq";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import type { ConcurrencyLimiter } from "../../infra/http/concurrency-limiter.js";
import type { QueueWakeUps } from "./queue-wake-ups.js";
import type { RankedSlots } from "./ranked-slots.js";
import { jobRank } from "./job-rank.js";

/**
 * What a queue would give next, read in one script on the queue's slot: whether it is at its
 * global concurrency (another job of the project runs), the next job's name, creation time and
 * delay (waiting first, then prioritized, then the earliest delayed), and that delayed job's time.
 */
const PEEK_NEXT_JOB = `
local active = redis.call('LLEN', KEYS[4])
local limit = tonumber(redis.call('HGET', KEYS[5], 'concurrency') or '0')
local busy = 0
if limit > 0 and active >= limit then busy = 1 end
local delayedAt = false
local id = redis.call('LINDEX', KEYS[1], -1)
if not id then id = redis.call('ZRANGE', KEYS[2], 0, 0)[1] end
if not id then
  local d = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
  id = d[1]
  delayedAt = d[2] or false
end
if not id then return {busy, false, false, false, false} end
local f = redis.call('HMGET', ARGV[1] .. id, 'name', 'timestamp', 'delay')
return {busy, f[1] or false, f[2] or false, f[3] or false, delayedAt}
`;

/** The peek as a command of the connection, sent by its digest (EVALSHA) once Redis knows it, not as 0.8 KB of script a call. */
interface PeekCommand {
  pimSyncPeekNextJob(...keysAndPrefix: string[]): Promise<unknown>;
}

function peekCommandOf(redis: RedisClient): PeekCommand {
  const client = redis as RedisClient & Partial<PeekCommand>;
  if (typeof client.pimSyncPeekNextJob !== "function") redis.defineCommand("pimSyncPeekNextJob", { numberOfKeys: 5, lua: PEEK_NEXT_JOB });
  return redis as unknown as PeekCommand;
}

/** Members of BullMQ's Worker this one replaces or calls, private in its declarations. */
interface WorkerInternals {
  waitForJob(blockUntil: number): Promise<number>;
  updateDelays(limitDelay?: number, delayUntil?: number): void;
}

function internals(worker: Worker): WorkerInternals {
  return worker as unknown as WorkerInternals;
}

/** BullMQ's delayed set scores a job's time shifted by 12 bits (its ordering counter). */
const DELAYED_SCORE_SHIFT = 0x1000;

type NextJob =
  | { readonly kind: "none" }
  | { readonly kind: "busy" }
  | { readonly kind: "later"; readonly at: number }
  | { readonly kind: "ready"; readonly rank: number };

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
 * docs/benchmarks.md, queue overhead. test/integration/app/worker-slots.test.ts and
 * test/integration/jobs/worker/slot-handover.test.ts pin this when BullMQ is upgraded (protected
 * members may change between its versions).
 */
export class SlotGatedWorker extends Worker {
  private readonly slots: ConcurrencyLimiter | RankedSlots;
  /** The connection BullMQ was given (shared, non-blocking): the wake-up is written with it. */
  private readonly redis: RedisClient;
  /** Slot releases of the jobs this worker took, by their lock token. */
  private readonly heldSlots = new Map<string, () => void>();
  /** Aborts a wait for a slot when the worker closes (close would otherwise wait for a slot). */
  private readonly closingSlots = new AbortController();

  /** Told when a token's run of jobs ends (its slot is released). */
  private readonly onRunEnded: ((token: string) => void) | undefined;
  /** The process' wake-ups, when this Worker has no blocking connection of its own (queue-wake-ups.ts). */
  private readonly wakeUps: QueueWakeUps | undefined;
  /** The first stalled-job check, while it waits for its turn (see startStalledCheckTimer). */
  private firstStalledCheck: NodeJS.Timeout | "started" | undefined;

  constructor(
    name: string,
    processor: Processor,
    options: WorkerOptions & {
      readonly connection: RedisClient;
      readonly slots: ConcurrencyLimiter | RankedSlots;
      readonly onRunEnded?: (token: string) => void;
      /**
       * The process' one reader of every queue's wake-up: given, the Worker opens no blocking
       * connection of its own and asks for a job when woken, ranked for the slot (job-rank.ts).
       */
      readonly wakeUps?: QueueWakeUps;
      /** With `wakeUps`: the backend of the queue's Queue (shared-queue-backend.ts), rather than one of the Worker's own. */
      readonly backend?: BackendFactory<RedisQueueBackend>;
    },
  ) {
    const { slots, onRunEnded, wakeUps, backend, ...workerOptions } = options;
    // Not started here: the slots field must be set before the main loop asks for a job.
    if (wakeUps)
      // The backend of a Queue: the shared connection only, no blocking one.
      super(name, processor, { ...workerOptions, autorun: false }, backend ?? ((queueName, opts) => createRedisBackend(queueName, opts)));
    else super(name, processor, { ...workerOptions, autorun: false });
    this.slots = slots;
    this.onRunEnded = onRunEnded;
    this.wakeUps = wakeUps;
    // BullMQ's wait for its queue's marker (a blocking read on the Worker's own connection): the
    // process' reader of every marker answers instead. Private in BullMQ's declarations, so set on
    // the instance; test/integration/jobs/worker/worker-connections.test.ts pins it across upgrades.
    if (wakeUps) internals(this).waitForJob = (blockUntil) => wakeUps.wait(this.name, blockUntil, this.closingSlots.signal);
    this.redis = options.connection;
    if (options.autorun !== false)
      void this.run().catch((error: unknown) => this.emit("error", error instanceof Error ? error : new Error(String(error))));
  }

  protected override async moveToActive(token: string, name?: string): Promise<Job> {
    // A job that ended without completing (handed back, delayed) and was allowed to take the
    // next one: that one runs on the slot the token still holds (see processJob).
    if (this.heldSlots.has(token)) return super.moveToActive(token, name);
    let rank: number | undefined;
    if (this.wakeUps) {
      const next = await this.peekNextJob();
      // Where BullMQ keeps its next delayed job's time: its next wait ends then.
      if (next.kind === "later") internals(this).updateDelays(0, next.at);
      // Nothing to take (or the project's job runs elsewhere, whose Worker takes the next one):
      // no slot is held while waiting for the queue's next wake-up.
      if (next.kind !== "ready") return this.nextJobFromJobData();
      rank = next.rank;
    }
    // Every process hears a wake-up (queue-wake-ups.ts): passing it on is for Workers that block.
    if (!this.wakeUps && this.slots.free === 0) await this.passOnWakeUp();
    let release: () => void;
    try {
      release =
        rank !== undefined && "acquireRanked" in this.slots
          ? await this.slots.acquireRanked(rank, this.closingSlots.signal)
          : await this.slots.acquire(this.closingSlots.signal);
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

  private async peekNextJob(): Promise<NextJob> {
    const keys = ["wait", "prioritized", "delayed", "active", "meta"].map((type) => this.toKey(type));
    const [busy, name, timestamp, delay, delayedAt] = (await peekCommandOf(this.redis).pimSyncPeekNextJob(...keys, this.toKey(""))) as [
      number,
      string | null,
      string | null,
      string | null,
      string | null,
    ];
    if (busy === 1) return { kind: "busy" };
    if (name === null) return { kind: "none" };
    if (delayedAt !== null) {
      const at = Math.floor(Number(delayedAt) / DELAYED_SCORE_SHIFT);
      if (at > Date.now()) return { kind: "later", at };
      return { kind: "ready", rank: jobRank(name, at) };
    }
    return { kind: "ready", rank: jobRank(name, Number(timestamp ?? 0) + Number(delay ?? 0)) };
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
        // A closing Worker does not take its queue's next job, and BullMQ writes no wake-up when
        // a job ends: another process' Worker would only learn of it at its safety poll.
        if (this.wakeUps && this.closing) void this.passOnWakeUp();
      }
    }
  }

  /**
   * BullMQ checks a queue for stalled jobs as its Worker starts, then every `stalledInterval`.
   * A process of one Worker per project made all its checks at once at start (1,000 scripts at
   * 1,000 projects, a tenth of its start-up CPU); with the process' wake-ups, each Worker's first
   * check waits one interval instead, so the start does not pay for them. Not spread at random
   * over the interval: checks sent together share the connection's writes and reads, and spread
   * one by one they doubled the idle CPU of 1,000 projects (1.8 % to 3.8 % of a core). A stalled
   * job needs two checks anyway (the first marks it, the next moves it back if its lock is gone).
   */
  override async startStalledCheckTimer(): Promise<void> {
    if (!this.wakeUps || this.firstStalledCheck !== undefined) {
      this.firstStalledCheck = "started";
      return super.startStalledCheckTimer();
    }
    const interval = this.opts.stalledInterval ?? 0;
    this.firstStalledCheck = setTimeout(() => {
      this.firstStalledCheck = "started";
      super
        .startStalledCheckTimer()
        .catch((error: unknown) => this.emit("error", error instanceof Error ? error : new Error(String(error))));
    }, interval);
    this.firstStalledCheck.unref();
    return Promise.resolve();
  }

  override async close(force = false): Promise<void> {
    if (this.firstStalledCheck !== undefined && this.firstStalledCheck !== "started") clearTimeout(this.firstStalledCheck);
    this.closingSlots.abort(new Error("worker closing"));
    return super.close(force);
  }
}
