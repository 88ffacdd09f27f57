import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import { z } from "zod";
import { BudgetPaused } from "../http/budget-paused.js";
import type { RateLimiter } from "../http/sliding-window-limiter.js";
import type { Keyspace } from "../redis/keyspace.js";
import type { RedisClient } from "../redis/redis-client.js";
import { isRedisConnectionFailure } from "../redis/redis-unavailable-error.js";
import { pauseScript, renewLeaseScript, settleRequestScript, takeRequestScript, takeSlotScript } from "./budget-scripts.js";
import type { SlotGate } from "../http/call-slots.js";

/** How often a caller asks again while its budget is held by calls in flight (their end is not announced). */
const POLL_MS = 20;
/** How long a caller waits before asking a Redis that did not answer again. */
const REDIS_RETRY_MS = 250;

export interface RedisBudgetContext {
  readonly redis: RedisClient;
  readonly keyspace: Keyspace;
  /** In-flight requests and held slots expire after this unless renewed (every third of it). */
  readonly leaseMs: number;
  /**
   * `http.max_retry_after_ms`: the longest pause set on a budget for every process, and the
   * longest one a caller waits for (a longer one, left by an older version, is refused).
   */
  readonly maxPauseMs: number;
  readonly logger: Logger;
}

/** takeRequestScript's answer (budget-scripts.ts). */
const takeAnswerSchema = z.union([z.number(), z.tuple([z.literal("pause"), z.number()])]);

/**
 * Members are unique per process and call: a killed process's leftovers are never mistaken for
 * a live one's. The pid is there for whoever looks at the keys (which process holds a slot).
 */
const processToken = `${process.pid}.${randomBytes(6).toString("hex")}`;
let counter = 0;
const nextMember = (): string => `${processToken}:${(counter += 1)}`;

/**
 * Asks Redis until it answers. Fail closed: while Redis does not answer no request goes out,
 * the caller waits (or leaves when its signal aborts); it is never let through unbudgeted.
 */
async function askUntilAnswered<T>(ctx: RedisBudgetContext, identity: string, ask: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  let warned = false;
  for (;;) {
    signal?.throwIfAborted();
    try {
      const answer = await ask();
      if (warned) ctx.logger.info({ budget: identity }, "Redis answers again: the shared upstream budget is in use again");
      return answer;
    } catch (error) {
      if (!warned) {
        const log = isRedisConnectionFailure(error) ? ctx.logger.warn.bind(ctx.logger) : ctx.logger.error.bind(ctx.logger);
        log({ budget: identity, err: error }, "the shared upstream budget is not answering: requests wait (fail closed)");
        warned = true;
      }
      await sleep(REDIS_RETRY_MS, undefined, { signal });
    }
  }
}

/**
 * Wakes this process's waiters when one of its own calls ends: room made here is taken at once
 * rather than at the next poll (room made by another process is seen at the next poll).
 */
function createWakeUp(): { readonly nap: (ms: number, signal?: AbortSignal) => Promise<void>; readonly wake: () => void } {
  let waiters: Array<() => void> = [];
  return {
    nap(ms, signal) {
      signal?.throwIfAborted();
      return new Promise<void>((resolve, reject) => {
        const done = (): void => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = (): void => {
          clearTimeout(timer);
          waiters = waiters.filter((waiter) => waiter !== done);
          reject(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
        };
        const timer = setTimeout(done, ms);
        waiters.push(done);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    wake() {
      const woken = waiters;
      waiters = [];
      for (const waiter of woken) waiter();
    },
  };
}

/** Keeps a lease alive while it is held; best effort: a lease that could not be renewed expires, which only frees room. */
function keepLease(ctx: RedisBudgetContext, key: string, member: string, ttlMs: number): () => void {
  const timer = setInterval(
    () => {
      renewLeaseScript(ctx.redis, [key], [member, ctx.leaseMs, ttlMs]).catch((error: unknown) => {
        ctx.logger.debug({ err: error }, "could not renew a budget lease");
      });
    },
    Math.max(100, Math.floor(ctx.leaseMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

function quietly(ctx: RedisBudgetContext, what: string, call: Promise<unknown>): void {
  call.catch((error: unknown) => ctx.logger.debug({ err: error }, `${what} failed; the lease expires by itself`));
}

/**
 * The requests of a window that other requests leave to urgent ones while one waits
 * (budget-scripts.ts): a fifth, at least one, never the whole window (a budget of one request has none).
 */
export function urgentReserveOf(limit: number): number {
  return Math.min(limit - 1, Math.max(1, Math.floor(limit / 5)));
}

/** At most `limit` requests in any `windowMs`, counted in Redis for every process (see budget-scripts.ts). */
export function redisRateLimiter(
  ctx: RedisBudgetContext,
  identity: string,
  options: { readonly limit: number; readonly windowMs: number },
): RateLimiter {
  const windowKey = ctx.keyspace.budgetKey(identity, "window");
  const pauseKey = ctx.keyspace.budgetKey(identity, "pause");
  const urgentKey = ctx.keyspace.budgetKey(identity, "urgent");
  const reserve = urgentReserveOf(options.limit);
  const ttlMs = Math.ceil(ctx.leaseMs + options.windowMs + 1000);
  const wakeUp = createWakeUp();

  return {
    async acquire(signal, urgent = false) {
      const member = nextMember();
      for (;;) {
        const answer = takeAnswerSchema.parse(
          await askUntilAnswered(
            ctx,
            identity,
            () =>
              takeRequestScript(
                ctx.redis,
                [windowKey, pauseKey, urgentKey],
                [options.limit, options.windowMs, ctx.leaseMs, member, urgent ? 1 : 0, reserve],
              ),
            signal,
          ),
        );
        if (Array.isArray(answer)) {
          const [, pauseLeftMs] = answer;
          if (pauseLeftMs > ctx.maxPauseMs) throw new BudgetPaused(pauseLeftMs, ctx.maxPauseMs);
          await sleep(pauseLeftMs, undefined, { signal });
          continue;
        }
        if (answer === 0) break;
        // Every request of the window is in flight: once one of ours is answered, the wait is known (a window after it).
        if (answer < 0) await wakeUp.nap(POLL_MS, signal);
        else await sleep(answer, undefined, { signal });
      }
      const stopRenewing = keepLease(ctx, windowKey, member, ttlMs);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        stopRenewing();
        quietly(ctx, "settling a budgeted request", settleRequestScript(ctx.redis, [windowKey], [member, ttlMs]).finally(wakeUp.wake));
      };
    },
    pauseFor(ms) {
      const pauseMs = Math.ceil(Math.min(ms, ctx.maxPauseMs));
      if (pauseMs <= 0) return;
      quietly(ctx, "pausing a shared budget", pauseScript(ctx.redis, [pauseKey], [pauseMs]));
    },
  };
}

/** At most `limit` calls in flight for every process, each slot a lease that a killed process loses after `leaseMs`. */
export function redisSlotGate(ctx: RedisBudgetContext, identity: string, limit: number): SlotGate {
  const slotsKey = ctx.keyspace.budgetKey(identity, "slots");
  const ttlMs = ctx.leaseMs * 2;
  const wakeUp = createWakeUp();
  return {
    async acquire(signal) {
      const member = nextMember();
      for (;;) {
        const answer = Number(
          await askUntilAnswered(ctx, identity, () => takeSlotScript(ctx.redis, [slotsKey], [limit, ctx.leaseMs, member]), signal),
        );
        if (answer === 0) break;
        await wakeUp.nap(POLL_MS, signal);
      }
      const stopRenewing = keepLease(ctx, slotsKey, member, ttlMs);
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        stopRenewing();
        quietly(ctx, "releasing a budget slot", ctx.redis.zrem(slotsKey, member).finally(wakeUp.wake));
      };
    },
  };
}
