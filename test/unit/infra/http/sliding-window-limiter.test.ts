import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSlidingWindowLimiter, type RateLimiter, type SettleRequest } from "../../../../src/infra/http/sliding-window-limiter.js";
import { BudgetPaused } from "../../../../src/infra/http/budget-paused.js";

// Lets a test act right after one of the limiter's sleeps ended (see the abort race below).
const sleepHooks = vi.hoisted(() => ({ onSleepEnd: undefined as (() => void) | undefined }));

// The limiter sleeps with `node:timers/promises`, which vitest's fake timers do not replace. This
// stand-in keeps its contract (resolve after `ms`, reject with an AbortError on abort) on top of
// the global setTimeout, so fake timers drive it and every test below is deterministic.
vi.mock("node:timers/promises", () => ({
  setTimeout: (ms: number, value?: unknown, options?: { signal?: AbortSignal }): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const signal = options?.signal;
      const abortError = (): Error =>
        Object.assign(new Error("The operation was aborted"), { name: "AbortError", code: "ABORT_ERR", cause: signal?.reason as unknown });
      if (signal?.aborted) {
        reject(abortError());
        return;
      }
      const onAbort = (): void => {
        globalThis.clearTimeout(id);
        reject(abortError());
      };
      const id = globalThis.setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve(value);
        sleepHooks.onSleepEnd?.();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
}));

type State = "pending" | "fulfilled" | "rejected";

interface Tracked {
  readonly state: () => State;
  /** When (fake clock, relative to t0) the acquisition resolved or rejected. */
  readonly at: () => number | undefined;
  readonly reason: () => unknown;
  /** When (relative to t0) `settle` was first called. */
  readonly answeredAt: () => number | undefined;
  /** Calls the acquired `settle` (every time it is called: it must be idempotent itself). */
  readonly settle: () => void;
}

let t0 = 0;

const elapsed = (): number => Date.now() - t0;

/**
 * Records when (fake clock, relative to t0) an acquisition settled. With `answerAfterMs`, the
 * request's answer "arrives" that long after it may start, and `settle` is called then.
 */
function track(promise: Promise<SettleRequest>, answerAfterMs?: number): Tracked {
  let state: State = "pending";
  let at: number | undefined;
  let reason: unknown;
  let answeredAt: number | undefined;
  let settleFn: SettleRequest | undefined;
  const settle = (): void => {
    if (!settleFn) throw new Error("settle called on a request that never started");
    answeredAt ??= elapsed();
    settleFn();
  };
  promise.then(
    (fn) => {
      state = "fulfilled";
      at = elapsed();
      settleFn = fn;
      // Fake timers push a 0 ms timer set from inside a timer to the next millisecond.
      if (answerAfterMs === 0) settle();
      else if (answerAfterMs !== undefined) globalThis.setTimeout(settle, answerAfterMs);
    },
    (error: unknown) => {
      state = "rejected";
      at = elapsed();
      reason = error;
    },
  );
  return { state: () => state, at: () => at, reason: () => reason, answeredAt: () => answeredAt, settle };
}

/** Without a margin, so windows are exactly `windowMs` long. */
function limiterOf(limit: number, windowMs: number): RateLimiter {
  return createSlidingWindowLimiter({ limit, windowMs, marginMs: 0, now: () => Date.now() });
}

/**
 * The contract: at no time are more than `limit` requests in flight (started, not answered) or
 * answered less than `windowMs` ago. The count only grows when a request starts, so checking
 * right after each start covers every instant.
 */
function assertWindowNeverOverfull(requests: readonly Tracked[], limit: number, windowMs: number): void {
  const started = requests.filter((r) => r.state() === "fulfilled");
  for (const request of started) {
    const t = request.at()!;
    const busy = started.filter((other) => {
      const answered = other.answeredAt();
      return other.at()! <= t && (answered === undefined || answered + windowMs > t);
    });
    expect(busy.length, `requests counting in the window at t=${t}`).toBeLessThanOrEqual(limit);
  }
}

function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function microtasks(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) await Promise.resolve();
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(1_000_000);
  t0 = Date.now();
  sleepHooks.onSleepEnd = undefined;
});

afterEach(() => {
  sleepHooks.onSleepEnd = undefined;
  vi.clearAllTimers();
  vi.useRealTimers();
});

describe("createSlidingWindowLimiter", () => {
  it("lets `limit` callers be in flight at once; the next waits until one settles and then ages out", async () => {
    const limiter = limiterOf(3, 1000);
    const calls = Array.from({ length: 4 }, () => track(limiter.acquire()));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => c.state())).toEqual(["fulfilled", "fulfilled", "fulfilled", "pending"]);
    expect(calls.slice(0, 3).map((c) => c.at())).toEqual([0, 0, 0]);

    // Nobody answered yet: however long that takes, the window stays full.
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls[3]!.state()).toBe("pending");

    calls[1]!.settle(); // t=5000
    await vi.advanceTimersByTimeAsync(999);
    expect(calls[3]!.state()).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(calls[3]!.state()).toBe("fulfilled");
    expect(calls[3]!.at()).toBe(6000);
  });

  it("defaults to a one-second window without margin", async () => {
    const limiter = createSlidingWindowLimiter({ limit: 1, now: () => Date.now() });
    const first = track(limiter.acquire(), 0);
    const second = track(limiter.acquire());
    await vi.advanceTimersByTimeAsync(999);
    expect(first.at()).toBe(0);
    expect(first.answeredAt()).toBe(0);
    expect(second.state()).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(second.state()).toBe("fulfilled");
    expect(second.at()).toBe(1000);
  });

  it("widens the default window by marginMs", async () => {
    const limiter = createSlidingWindowLimiter({ limit: 1, marginMs: 40, now: () => Date.now() });
    track(limiter.acquire(), 0);
    const second = track(limiter.acquire());
    await vi.advanceTimersByTimeAsync(1039);
    expect(second.state()).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(second.at()).toBe(1040);
  });

  it("widens a given window by marginMs, counted from each answer", async () => {
    const limiter = createSlidingWindowLimiter({ limit: 2, windowMs: 100, marginMs: 25, now: () => Date.now() });
    const calls = Array.from({ length: 5 }, () => track(limiter.acquire(), 10));
    await vi.advanceTimersByTimeAsync(2000);
    // Answered 10 ms after starting, each slot is busy for 10 + 125 ms.
    expect(calls.map((c) => c.at())).toEqual([0, 0, 135, 135, 270]);
    assertWindowNeverOverfull(calls, 2, 125);
  });

  it.each([
    { answerAfterMs: 0, nextStart: 100 },
    { answerAfterMs: 1, nextStart: 101 },
    { answerAfterMs: 30, nextStart: 130 },
    { answerAfterMs: 250, nextStart: 350 },
    { answerAfterMs: 60_000, nextStart: 60_100 },
  ])(
    "counts a request until windowMs after its answer: answered after $answerAfterMs ms, the next starts at $nextStart",
    async ({ answerAfterMs, nextStart }) => {
      const limiter = limiterOf(1, 100);
      const first = track(limiter.acquire(), answerAfterMs);
      const next = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(nextStart - 1);
      expect(first.answeredAt()).toBe(answerAfterMs);
      expect(next.state()).toBe("pending");
      await vi.advanceTimersByTimeAsync(1);
      expect(next.state()).toBe("fulfilled");
      expect(next.at()).toBe(nextStart);
    },
  );

  it("frees each slot windowMs after its own answer: a request answered late keeps its slot longer than one started later", async () => {
    const limiter = limiterOf(2, 100);
    const slow = track(limiter.acquire(), 300); // t=0, answered at 300
    await vi.advanceTimersByTimeAsync(20);
    const quick = track(limiter.acquire(), 10); // t=20, answered at 30
    const c = track(limiter.acquire(), 0); // quick's slot: t=130, answered at once
    const d = track(limiter.acquire(), 0); // c's slot again: t=230
    const e = track(limiter.acquire(), 0); // d's slot at t=330: slow still holds its own until t=400
    await vi.advanceTimersByTimeAsync(2000);
    expect([slow.at(), quick.at(), c.at(), d.at(), e.at()]).toEqual([0, 20, 130, 230, 330]);
    assertWindowNeverOverfull([slow, quick, c, d, e], 2, 100);
  });

  it("keeps the slot of a request that is never settled: the window stays full", async () => {
    const limiter = limiterOf(2, 100);
    const stuck = track(limiter.acquire());
    const answered = track(limiter.acquire(), 0);
    const next = track(limiter.acquire()); // answered's slot at t=100, never settled either
    const blocked = track(limiter.acquire());
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect([stuck.at(), answered.at(), next.at()]).toEqual([0, 0, 100]);
    expect(blocked.state()).toBe("pending");

    stuck.settle(); // t=3_600_000
    await vi.advanceTimersByTimeAsync(99);
    expect(blocked.state()).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(blocked.at()).toBe(3_600_100);
  });

  it("makes settle idempotent: settling one request twice does not free two slots", async () => {
    const limiter = limiterOf(2, 100);
    const a = track(limiter.acquire());
    const b = track(limiter.acquire()); // stays in flight
    await vi.advanceTimersByTimeAsync(0);
    a.settle();
    a.settle();
    const c = track(limiter.acquire()); // a's slot at t=100, stays in flight
    const d = track(limiter.acquire()); // must wait: b and c are in flight
    await vi.advanceTimersByTimeAsync(50);
    a.settle(); // a late duplicate, t=50
    await vi.advanceTimersByTimeAsync(10_000);
    expect(c.at()).toBe(100);
    a.settle(); // a duplicate after a's slot has aged out
    await vi.advanceTimersByTimeAsync(10_000);
    expect(d.state()).toBe("pending");

    b.settle(); // t=20_050
    b.settle();
    await vi.advanceTimersByTimeAsync(99);
    expect(d.state()).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(d.at()).toBe(20_150);
    const e = track(limiter.acquire()); // c and d in flight
    await vi.advanceTimersByTimeAsync(10_000);
    expect(e.state()).toBe("pending");
    assertWindowNeverOverfull([a, b, c, d, e], 2, 100);
  });

  it("serves a burst in arrival order, `limit` per window when answers come at once", async () => {
    const limiter = limiterOf(3, 100);
    const order: number[] = [];
    const calls = Array.from({ length: 20 }, (_, index) => {
      const promise = limiter.acquire();
      void promise.then(() => order.push(index));
      return track(promise, 0);
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls.every((c) => c.state() === "fulfilled")).toBe(true);
    expect(calls.map((c) => c.at())).toEqual(Array.from({ length: 20 }, (_, index) => Math.floor(index / 3) * 100));
    expect(order).toEqual(Array.from({ length: 20 }, (_, index) => index));
    assertWindowNeverOverfull(calls, 3, 100);
  });

  it("serves callers in arrival order even when answers arrive out of order", async () => {
    const limiter = limiterOf(2, 100);
    const order: number[] = [];
    const answerAfter = [500, 0, 0, 300, 0, 0, 0];
    const calls = answerAfter.map((delay, index) => {
      const promise = limiter.acquire();
      void promise.then(() => order.push(index));
      return track(promise, delay);
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // 0 holds a slot until 600 (answered at 500); the other slot goes to 1 at 0, 2 at 100 and 3
    // at 200 (answered at 500, so held until 600 too); then 4 and 5 at 600, 6 at 700.
    expect(calls.map((c) => c.at())).toEqual([0, 0, 100, 200, 600, 600, 700]);
    assertWindowNeverOverfull(calls, 2, 100);
  });

  it("never has more than `limit` requests in flight or answered less than windowMs ago, and starts each as early as that allows (seeded random arrivals and answer delays)", async () => {
    for (const seed of [1, 2, 3, 42, 1234, 98_765]) {
      const random = lcg(seed);
      const limit = 1 + Math.floor(random() * 4);
      const windowMs = 50 + Math.floor(random() * 200);
      const limiter = limiterOf(limit, windowMs);
      const base = elapsed();
      const arrivals: number[] = [];
      const delays: number[] = [];
      let clock = 0;
      for (let i = 0; i < 40; i += 1) {
        clock += Math.floor(random() * 60);
        arrivals.push(clock);
        // Mostly quick answers, some slow ones, some at once.
        const roll = random();
        delays.push(roll < 0.2 ? 0 : roll < 0.8 ? Math.floor(random() * 80) : Math.floor(random() * 600));
      }
      const tracked: Tracked[] = [];
      arrivals.forEach((arrival, i) => {
        globalThis.setTimeout(() => tracked.push(track(limiter.acquire(), delays[i])), arrival);
      });
      await vi.advanceTimersByTimeAsync(arrivals.at(-1)! + 40 * (windowMs + 600) + 1);
      expect(tracked).toHaveLength(40);
      expect(tracked.every((c) => c.state() === "fulfilled" && c.answeredAt() !== undefined)).toBe(true);
      assertWindowNeverOverfull(tracked, limit, windowMs);
      const starts = tracked.map((c) => c.at()! - base);
      expect(tracked.map((c, i) => c.answeredAt()! - c.at()! === delays[i])).not.toContain(false);
      // FIFO and no needless waiting: each start is the earliest its arrival, the caller ahead
      // of it and the window allow. Request j frees its slot at start + delay + windowMs; the
      // i-th may start once fewer than `limit` of the requests before it still hold theirs.
      const expected: number[] = [];
      arrivals.forEach((arrival, i) => {
        const previous = i > 0 ? expected[i - 1]! : 0;
        const frees = expected.map((start, j) => start + delays[j]! + windowMs).sort((a, b) => b - a);
        const windowFree = i >= limit ? frees[limit - 1]! : 0;
        expected.push(Math.max(arrival, previous, windowFree));
      });
      expect(starts, `seed ${seed}, limit ${limit}, window ${windowMs} ms`).toEqual(expected);
      vi.clearAllTimers();
    }
  });

  it.each([0, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY])("throws on an invalid limit (%s)", (limit) => {
    expect(() => createSlidingWindowLimiter({ limit })).toThrow(/rate limit must be at least 1/);
  });

  it("accepts a limit of 1", () => {
    expect(() => createSlidingWindowLimiter({ limit: 1 })).not.toThrow();
  });

  describe("pauseFor", () => {
    it("holds every caller back for the pause even when slots are free", async () => {
      const limiter = limiterOf(10, 1000);
      limiter.pauseFor(500);
      const calls = [track(limiter.acquire()), track(limiter.acquire())];
      await vi.advanceTimersByTimeAsync(499);
      expect(calls.map((c) => c.state())).toEqual(["pending", "pending"]);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls.map((c) => c.at())).toEqual([500, 500]);
    });

    it("does not shorten a longer pause already in force", async () => {
      const limiter = limiterOf(10, 1000);
      limiter.pauseFor(800);
      limiter.pauseFor(200);
      const call = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(799);
      expect(call.state()).toBe("pending");
      await vi.advanceTimersByTimeAsync(1);
      expect(call.at()).toBe(800);
    });

    it("extends a shorter pause", async () => {
      const limiter = limiterOf(10, 1000);
      limiter.pauseFor(200);
      await vi.advanceTimersByTimeAsync(100);
      limiter.pauseFor(300); // until t=400
      const call = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(299);
      expect(call.state()).toBe("pending");
      await vi.advanceTimersByTimeAsync(1);
      expect(call.at()).toBe(400);
    });

    it("also holds back a caller already waiting for a window slot", async () => {
      const limiter = limiterOf(1, 100);
      const first = track(limiter.acquire(), 0); // t=0
      const second = track(limiter.acquire()); // would start at t=100
      await vi.advanceTimersByTimeAsync(50);
      limiter.pauseFor(250); // until t=300
      await vi.advanceTimersByTimeAsync(1000);
      expect(first.at()).toBe(0);
      expect(second.at()).toBe(300);
    });

    it("also holds back a caller waiting for a request in flight, after that request settles", async () => {
      const limiter = limiterOf(1, 100);
      const first = track(limiter.acquire()); // t=0, in flight
      const second = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(50);
      limiter.pauseFor(1000); // until t=1050
      await vi.advanceTimersByTimeAsync(50);
      first.settle(); // t=100: the window alone would let `second` go at t=200
      await vi.advanceTimersByTimeAsync(949);
      expect(second.state()).toBe("pending");
      await vi.advanceTimersByTimeAsync(1);
      expect(second.at()).toBe(1050);
    });

    it("does not shorten the window: after the pause, a request in flight still holds its slot", async () => {
      const limiter = limiterOf(1, 100);
      const first = track(limiter.acquire()); // in flight
      limiter.pauseFor(200);
      const second = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(1000);
      expect(second.state()).toBe("pending");
      first.settle(); // t=1000
      await vi.advanceTimersByTimeAsync(100);
      expect(second.at()).toBe(1100);
    });

    it("has no effect with 0 ms or once the pause is over", async () => {
      const limiter = limiterOf(10, 1000);
      limiter.pauseFor(0);
      const now = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(0);
      expect(now.at()).toBe(0);
      limiter.pauseFor(100);
      await vi.advanceTimersByTimeAsync(150);
      const later = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(0);
      expect(later.at()).toBe(150);
    });
  });

  describe("maxPauseMs (http.max_retry_after_ms)", () => {
    it("pauses for at most maxPauseMs, however long the Retry-After", async () => {
      const limiter = createSlidingWindowLimiter({ limit: 10, windowMs: 1000, marginMs: 0, maxPauseMs: 2_000, now: () => Date.now() });
      limiter.pauseFor(900_000);
      const call = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(1_999);
      expect(call.state()).toBe("pending");
      await vi.advanceTimersByTimeAsync(1);
      expect(call.at()).toBe(2_000);
    });

    it("refuses to wait for a pause that lasts longer than maxPauseMs (a clock that went back): BudgetPaused with the pause's end", async () => {
      let clock = 10_000;
      const limiter = createSlidingWindowLimiter({ limit: 10, windowMs: 1000, marginMs: 0, maxPauseMs: 2_000, now: () => clock });
      limiter.pauseFor(2_000); // until 12,000
      clock = 5_000;
      const refused = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(0);
      expect(refused.state()).toBe("rejected");
      expect(refused.reason()).toBeInstanceOf(BudgetPaused);
      expect(refused.reason()).toMatchObject({ code: "HTTP_PAUSED", retryable: true, retryAfterMs: 7_000, pauseLeftMs: 7_000 });
      // A refusal leaves the line to the next caller: once the pause is within the cap, it is waited for.
      clock = 10_500;
      const waits = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(0);
      expect(waits.state()).toBe("pending");
    });
  });

  describe("abort", () => {
    it("rejects an already aborted acquisition with the signal's reason, without using a slot", async () => {
      const limiter = limiterOf(1, 1000);
      const controller = new AbortController();
      controller.abort(new Error("cancelled"));
      const aborted = track(limiter.acquire(controller.signal));
      const next = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(0);
      expect(aborted.state()).toBe("rejected");
      expect(aborted.reason()).toEqual(new Error("cancelled"));
      expect(next.state()).toBe("fulfilled");
      expect(next.at()).toBe(0);
    });

    it("rejects with an Error even when the abort reason is not one", async () => {
      const limiter = limiterOf(1, 1000);
      const controller = new AbortController();
      controller.abort("just a string");
      const aborted = track(limiter.acquire(controller.signal));
      await vi.advanceTimersByTimeAsync(0);
      expect(aborted.state()).toBe("rejected");
      expect(aborted.reason()).toBeInstanceOf(Error);
    });

    it("rejects a caller waiting for a slot to age out as soon as it is aborted, and the callers behind it go on in order", async () => {
      const limiter = limiterOf(1, 1000);
      const first = track(limiter.acquire(), 0); // t=0, answered at once
      const controller = new AbortController();
      const waiting = track(limiter.acquire(controller.signal));
      const behind = [track(limiter.acquire(), 0), track(limiter.acquire(), 0)];
      await vi.advanceTimersByTimeAsync(300);
      expect(waiting.state()).toBe("pending");
      controller.abort(new Error("gave up"));
      await vi.advanceTimersByTimeAsync(0);
      expect(waiting.state()).toBe("rejected");
      expect(waiting.reason()).toEqual(new Error("gave up"));
      expect(waiting.at()).toBe(300);
      await vi.advanceTimersByTimeAsync(5000);
      expect(first.at()).toBe(0);
      // The aborted caller never started, so the callers behind get the slots it would have had.
      expect(behind.map((c) => c.at())).toEqual([1000, 2000]);
    });

    it("rejects a caller waiting for a request in flight as soon as it is aborted, and the caller behind it gets the slot", async () => {
      const limiter = limiterOf(1, 1000);
      const first = track(limiter.acquire()); // in flight
      const controller = new AbortController();
      const waiting = track(limiter.acquire(controller.signal));
      const behind = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(300);
      controller.abort();
      await vi.advanceTimersByTimeAsync(0);
      expect(waiting.state()).toBe("rejected");
      expect(waiting.at()).toBe(300);
      await vi.advanceTimersByTimeAsync(700);
      first.settle(); // t=1000
      await vi.advanceTimersByTimeAsync(999);
      expect(behind.state()).toBe("pending");
      await vi.advanceTimersByTimeAsync(1);
      expect(behind.at()).toBe(2000);
    });

    it("rejects a caller waiting out a pause as soon as it is aborted", async () => {
      const limiter = limiterOf(5, 1000);
      limiter.pauseFor(10_000);
      const controller = new AbortController();
      const waiting = track(limiter.acquire(controller.signal));
      const behind = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(100);
      controller.abort();
      await vi.advanceTimersByTimeAsync(0);
      expect(waiting.state()).toBe("rejected");
      expect(waiting.at()).toBe(100);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(behind.at()).toBe(10_000);
    });

    it("rejects a caller queued behind another waiter as soon as it is aborted", async () => {
      const limiter = limiterOf(1, 1000);
      const first = track(limiter.acquire(), 0); // t=0
      const head = track(limiter.acquire(), 0); // waits until t=1000
      const controller = new AbortController();
      const queued = track(limiter.acquire(controller.signal));
      const last = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(100);
      controller.abort();
      await vi.advanceTimersByTimeAsync(0);
      expect(first.at()).toBe(0);
      expect(head.state()).toBe("pending");
      expect(queued.state()).toBe("rejected");
      expect(queued.at()).toBe(100);
      await vi.advanceTimersByTimeAsync(5000);
      expect([head.at(), last.at()]).toEqual([1000, 2000]);
    });

    it("keeps serving callers, in order, after several aborted ones", async () => {
      const limiter = limiterOf(2, 100);
      const controllers = [new AbortController(), new AbortController(), new AbortController()];
      const held = [track(limiter.acquire(), 0), track(limiter.acquire(), 0)];
      const aborted = controllers.map((controller) => track(limiter.acquire(controller.signal)));
      const order: number[] = [];
      const after = [0, 1, 2].map((index) => {
        const promise = limiter.acquire();
        void promise.then(() => order.push(index));
        return track(promise, 0);
      });
      controllers.forEach((controller) => controller.abort());
      await vi.advanceTimersByTimeAsync(1000);
      expect(held.map((c) => c.at())).toEqual([0, 0]);
      expect(aborted.map((c) => c.state())).toEqual(["rejected", "rejected", "rejected"]);
      expect(after.map((c) => c.at())).toEqual([100, 100, 200]);
      expect(order).toEqual([0, 1, 2]);
    });

    it("changes nothing once the slot was handed out: the request keeps its slot until it settles", async () => {
      const limiter = limiterOf(1, 100);
      const controller = new AbortController();
      const started = track(limiter.acquire(controller.signal));
      const next = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(0);
      expect(started.state()).toBe("fulfilled");
      controller.abort();
      await vi.advanceTimersByTimeAsync(5000);
      expect(next.state()).toBe("pending");
      started.settle(); // t=5000
      await vi.advanceTimersByTimeAsync(100);
      expect(next.at()).toBe(5100);
    });

    /**
     * The window frees a slot at t=1000 and the waiter's sleep ends; its caller aborts k microtasks
     * later (from some other promise chain). Depending on k the abort lands before the limiter
     * looks again, between the limiter handing out the slot and the caller receiving it, or after.
     */
    async function abortRace(k: number): Promise<{ waiting: Tracked; behind: Tracked; all: Tracked[] }> {
      t0 = Date.now(); // each round's times count from its own start
      const limiter = limiterOf(1, 1000);
      const first = track(limiter.acquire(), 0); // t=0, answered at once
      const controller = new AbortController();
      const waiting = track(limiter.acquire(controller.signal));
      const behind = track(limiter.acquire(), 0);
      await vi.advanceTimersByTimeAsync(0);
      sleepHooks.onSleepEnd = () => {
        sleepHooks.onSleepEnd = undefined;
        void microtasks(k).then(() => controller.abort(new Error("gave up")));
      };
      await vi.advanceTimersByTimeAsync(1000);
      // A caller that got its slot before the abort owns it and answers at once.
      if (waiting.state() === "fulfilled") waiting.settle();
      await vi.advanceTimersByTimeAsync(5000);
      return { waiting, behind, all: [first, waiting, behind] };
    }

    it("gives the slot back when an aborted caller's turn comes anyway: no slot is lost, whenever the abort lands", async () => {
      const outcomes = new Set<State>();
      for (let k = 0; k <= 20; k += 1) {
        const { waiting, behind, all } = await abortRace(k);
        outcomes.add(waiting.state());
        expect(waiting.state(), `abort after ${k} microtasks`).not.toBe("pending");
        expect(waiting.at(), `abort after ${k} microtasks`).toBe(1000);
        // The slot did not stay in flight: the caller behind started within a window.
        expect(behind.state(), `abort after ${k} microtasks`).toBe("fulfilled");
        expect(behind.at()!, `abort after ${k} microtasks`).toBeLessThanOrEqual(2000);
        assertWindowNeverOverfull(all, 1, 1000);
        vi.clearAllTimers();
      }
      // The sweep covers both sides of the race.
      expect([...outcomes].sort()).toEqual(["fulfilled", "rejected"]);
    });

    it("gives the slot of an aborted caller whose turn comes anyway straight back: it sent no request", async () => {
      const late: string[] = [];
      for (let k = 0; k <= 20; k += 1) {
        const { waiting, behind } = await abortRace(k);
        // Rejected at t=1000 means no request was sent: the caller behind should start then.
        if (waiting.state() === "rejected" && behind.at() !== 1000)
          late.push(`abort after ${k} microtasks: next caller at t=${behind.at()}`);
        vi.clearAllTimers();
      }
      expect(late).toEqual([]);
    });
  });

  it("keeps one timer for a waiter, however many requests settle while it sleeps", async () => {
    const limiter = limiterOf(5, 1000);
    const inFlight = Array.from({ length: 5 }, () => track(limiter.acquire()));
    await vi.advanceTimersByTimeAsync(0);
    limiter.pauseFor(60_000); // e.g. a 429 with Retry-After: 60
    const waiting = track(limiter.acquire());
    await vi.advanceTimersByTimeAsync(0);
    for (const request of inFlight) {
      request.settle();
      await vi.advanceTimersByTimeAsync(0);
    }
    // The waiter needs one timer (until t=60_000); each abandoned 60 s sleep is one more timer
    // (and, with a signal, one more abort listener: Node warns past 10 on one signal).
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(waiting.at()).toBe(60_000);
  });
});
