import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSlidingWindowLimiter, type RateLimiter } from "../../../src/http/sliding-window-limiter.js";

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
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
}));

type State = "pending" | "fulfilled" | "rejected";

interface Tracked {
  readonly state: () => State;
  readonly at: () => number | undefined;
  readonly reason: () => unknown;
}

let t0 = 0;

/** Records when (fake clock, relative to t0) an acquisition settled. */
function track(promise: Promise<void>): Tracked {
  let state: State = "pending";
  let at: number | undefined;
  let reason: unknown;
  promise.then(
    () => {
      state = "fulfilled";
      at = Date.now() - t0;
    },
    (error: unknown) => {
      state = "rejected";
      at = Date.now() - t0;
      reason = error;
    },
  );
  return { state: () => state, at: () => at, reason: () => reason };
}

/** Without the safety margin, so windows are exactly `windowMs` long. */
function limiterOf(limit: number, windowMs: number): RateLimiter {
  return createSlidingWindowLimiter({ limit, windowMs, marginMs: 0, now: () => Date.now() });
}

/** Any `windowMs`-long window holds at most `limit` of these (sorted) start times. */
function assertNoWindowExceeds(starts: readonly number[], limit: number, windowMs: number): void {
  const sorted = [...starts].sort((a, b) => a - b);
  for (let i = 0; i + limit < sorted.length; i += 1) {
    expect(sorted[i + limit]! - sorted[i]!).toBeGreaterThanOrEqual(windowMs);
  }
}

function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(1_000_000);
  t0 = Date.now();
});

afterEach(() => {
  vi.clearAllTimers();
  vi.useRealTimers();
});

describe("createSlidingWindowLimiter", () => {
  it("lets `limit` callers start at once and holds the next one for a full window", async () => {
    const limiter = limiterOf(3, 1000);
    const calls = Array.from({ length: 4 }, () => track(limiter.acquire()));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => c.state())).toEqual(["fulfilled", "fulfilled", "fulfilled", "pending"]);
    expect(calls.slice(0, 3).map((c) => c.at())).toEqual([0, 0, 0]);

    await vi.advanceTimersByTimeAsync(999);
    expect(calls[3]!.state()).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(calls[3]!.state()).toBe("fulfilled");
    expect(calls[3]!.at()).toBe(1000);
  });

  it("defaults to a one-second window plus a 40 ms margin", async () => {
    const limiter = createSlidingWindowLimiter({ limit: 1, now: () => Date.now() });
    const first = track(limiter.acquire());
    const second = track(limiter.acquire());
    await vi.advanceTimersByTimeAsync(1039);
    expect(first.state()).toBe("fulfilled");
    expect(second.state()).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(second.at()).toBe(1040);
  });

  it("widens the window by marginMs", async () => {
    const limiter = createSlidingWindowLimiter({ limit: 2, windowMs: 100, marginMs: 25, now: () => Date.now() });
    const calls = Array.from({ length: 5 }, () => track(limiter.acquire()));
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.map((c) => c.at())).toEqual([0, 0, 125, 125, 250]);
    assertNoWindowExceeds(
      calls.map((c) => c.at()!),
      2,
      125,
    );
  });

  it("spaces a burst into windows: exactly `limit` starts per window, in arrival order", async () => {
    const limiter = limiterOf(3, 100);
    const order: number[] = [];
    const calls = Array.from({ length: 20 }, (_, index) => {
      const promise = limiter.acquire();
      void promise.then(() => order.push(index));
      return track(promise);
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls.every((c) => c.state() === "fulfilled")).toBe(true);
    const starts = calls.map((c) => c.at()!);
    expect(starts).toEqual(Array.from({ length: 20 }, (_, index) => Math.floor(index / 3) * 100));
    expect(order).toEqual(Array.from({ length: 20 }, (_, index) => index));
    assertNoWindowExceeds(starts, 3, 100);
  });

  it("slides: a slot frees exactly windowMs after the start that used it, not at a fixed boundary", async () => {
    const limiter = limiterOf(2, 100);
    const a = track(limiter.acquire()); // t=0
    await vi.advanceTimersByTimeAsync(60);
    const b = track(limiter.acquire()); // t=60
    const c = track(limiter.acquire()); // waits for a's slot: t=100
    const d = track(limiter.acquire()); // waits for b's slot: t=160
    await vi.advanceTimersByTimeAsync(1000);
    expect([a.at(), b.at(), c.at(), d.at()]).toEqual([0, 60, 100, 160]);
  });

  it("never lets more than `limit` start in any window, and starts everyone as early as allowed (seeded random arrivals)", async () => {
    for (const seed of [1, 2, 3, 42, 1234]) {
      const random = lcg(seed);
      const limit = 1 + Math.floor(random() * 4);
      const windowMs = 50 + Math.floor(random() * 200);
      const limiter = limiterOf(limit, windowMs);
      const base = Date.now() - t0;
      const arrivals: number[] = [];
      let clock = 0;
      for (let i = 0; i < 40; i += 1) {
        clock += Math.floor(random() * 60);
        arrivals.push(clock);
      }
      const tracked: Tracked[] = [];
      for (const arrival of arrivals) {
        globalThis.setTimeout(() => tracked.push(track(limiter.acquire())), arrival);
      }
      await vi.advanceTimersByTimeAsync(arrivals.at(-1)! + 40 * windowMs + 1);
      expect(tracked).toHaveLength(40);
      expect(tracked.every((c) => c.state() === "fulfilled")).toBe(true);
      const starts = tracked.map((c) => c.at()! - base);
      assertNoWindowExceeds(starts, limit, windowMs);
      // FIFO and no needless waiting: each start is the earliest the window, the caller's
      // arrival and the caller ahead of it allow.
      const expected: number[] = [];
      arrivals.forEach((arrival, i) => {
        const previous = i > 0 ? expected[i - 1]! : 0;
        const windowFree = i >= limit ? expected[i - limit]! + windowMs : 0;
        expected.push(Math.max(arrival, previous, windowFree));
      });
      expect(starts).toEqual(expected);
    }
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
      const first = track(limiter.acquire()); // t=0
      const second = track(limiter.acquire()); // would start at t=100
      await vi.advanceTimersByTimeAsync(50);
      limiter.pauseFor(250); // until t=300
      await vi.advanceTimersByTimeAsync(1000);
      expect(first.at()).toBe(0);
      expect(second.at()).toBe(300);
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

  describe("abort", () => {
    it("rejects an already aborted acquisition without using a slot", async () => {
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

    it("rejects a caller waiting for a slot as soon as it is aborted, and the callers behind it go on in order", async () => {
      const limiter = limiterOf(1, 1000);
      const first = track(limiter.acquire()); // t=0
      const controller = new AbortController();
      const waiting = track(limiter.acquire(controller.signal));
      const behind = track(limiter.acquire());
      await vi.advanceTimersByTimeAsync(300);
      expect(waiting.state()).toBe("pending");
      controller.abort();
      await vi.advanceTimersByTimeAsync(0);
      expect(waiting.state()).toBe("rejected");
      expect(waiting.at()).toBe(300);
      await vi.advanceTimersByTimeAsync(5000);
      expect(first.at()).toBe(0);
      // The aborted caller never started, so `behind` gets the slot freed at t=1000.
      expect(behind.at()).toBe(1000);
    });

    it("rejects a caller waiting out a pause as soon as it is aborted", async () => {
      const limiter = limiterOf(5, 1000);
      limiter.pauseFor(10_000);
      const controller = new AbortController();
      const waiting = track(limiter.acquire(controller.signal));
      await vi.advanceTimersByTimeAsync(100);
      controller.abort();
      await vi.advanceTimersByTimeAsync(0);
      expect(waiting.state()).toBe("rejected");
      expect(waiting.at()).toBe(100);
    });

    it("keeps serving callers after several aborted ones", async () => {
      const limiter = limiterOf(2, 100);
      const controllers = [new AbortController(), new AbortController(), new AbortController()];
      const held = [track(limiter.acquire()), track(limiter.acquire())];
      const aborted = controllers.map((controller) => track(limiter.acquire(controller.signal)));
      const after = [track(limiter.acquire()), track(limiter.acquire()), track(limiter.acquire())];
      controllers.forEach((controller) => controller.abort());
      await vi.advanceTimersByTimeAsync(1000);
      expect(held.map((c) => c.at())).toEqual([0, 0]);
      expect(aborted.map((c) => c.state())).toEqual(["rejected", "rejected", "rejected"]);
      expect(after.map((c) => c.state())).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
      expect(after.map((c) => c.at())).toEqual([100, 100, 200]);
    });

    it("rejects a caller queued behind another waiter as soon as it is aborted", async () => {
      const limiter = limiterOf(1, 1000);
      const first = track(limiter.acquire()); // t=0
      const head = track(limiter.acquire()); // waits until t=1000
      const controller = new AbortController();
      const queued = track(limiter.acquire(controller.signal));
      await vi.advanceTimersByTimeAsync(100);
      controller.abort();
      await vi.advanceTimersByTimeAsync(0);
      expect(first.at()).toBe(0);
      expect(head.state()).toBe("pending");
      expect(queued.state()).toBe("rejected");
      expect(queued.at()).toBe(100);
    });
  });
});
