import { describe, expect, it, vi } from "vitest";
import { createSlidingWindowLimiter, type SettleRequest } from "../../../../src/infra/http/sliding-window-limiter.js";

// The same limiter with its real `node:timers/promises` sleeps, driven by an injected clock: a
// waiter can only start once the test moves the clock, however long the real sleeps take.

function manualClock(): { now: () => number; advance: (ms: number) => void; reads: () => number } {
  let time = 0;
  let reads = 0;
  return {
    now: () => {
      reads += 1;
      return time;
    },
    advance: (ms) => void (time += ms),
    reads: () => reads,
  };
}

/** Waits until the limiter has looked at the clock again, i.e. a real sleep ended (or a settle woke it) and it re-checked. */
async function waitForRecheck(clock: { reads: () => number }, times = 1): Promise<void> {
  const target = clock.reads() + times;
  await vi.waitFor(() => expect(clock.reads()).toBeGreaterThanOrEqual(target), { timeout: 2000, interval: 2 });
}

type State = "pending" | "fulfilled" | "rejected";

function track(promise: Promise<SettleRequest>): { state: () => State; settle: () => void } {
  let state: State = "pending";
  let settle: SettleRequest | undefined;
  promise.then(
    (fn) => {
      state = "fulfilled";
      settle = fn;
    },
    () => void (state = "rejected"),
  );
  return {
    state: () => state,
    settle: () => {
      if (!settle) throw new Error("settle called on a request that never started");
      settle();
    },
  };
}

async function ticks(n = 20): Promise<void> {
  for (let i = 0; i < n; i += 1) await Promise.resolve();
}

const eventually = { timeout: 2000, interval: 5 };

describe("createSlidingWindowLimiter with real sleeps and an injected clock", () => {
  it("starts a waiter only once the injected clock has moved a window past the answer", async () => {
    const clock = manualClock();
    const limiter = createSlidingWindowLimiter({ limit: 1, windowMs: 20, marginMs: 0, now: clock.now });
    const settleFirst = await limiter.acquire(); // clock 0
    const second = track(limiter.acquire());
    await waitForRecheck(clock);
    expect(second.state()).toBe("pending");
    clock.advance(5);
    settleFirst(); // answered at clock 5: the slot is busy until 25
    await waitForRecheck(clock);
    expect(second.state()).toBe("pending");
    clock.advance(19); // 24
    await waitForRecheck(clock);
    expect(second.state()).toBe("pending");
    clock.advance(1); // 25
    await vi.waitFor(() => expect(second.state()).toBe("fulfilled"), eventually);
  });

  it("wakes a waiter that has no timer to wait for when the request in flight settles", async () => {
    const clock = manualClock();
    const limiter = createSlidingWindowLimiter({ limit: 1, windowMs: 20, marginMs: 0, now: clock.now });
    const settleFirst = await limiter.acquire();
    const second = track(limiter.acquire());
    await waitForRecheck(clock);
    // Time alone frees nothing while the first request is in flight.
    clock.advance(1000);
    await ticks();
    expect(second.state()).toBe("pending");
    settleFirst(); // clock 1000: only this settle can wake the waiter
    await waitForRecheck(clock);
    expect(second.state()).toBe("pending");
    clock.advance(20);
    await vi.waitFor(() => expect(second.state()).toBe("fulfilled"), eventually);
  });

  it("waits out a pause on the injected clock", async () => {
    const clock = manualClock();
    const limiter = createSlidingWindowLimiter({ limit: 5, windowMs: 1000, marginMs: 0, now: clock.now });
    limiter.pauseFor(30);
    const call = track(limiter.acquire());
    await waitForRecheck(clock);
    expect(call.state()).toBe("pending");
    clock.advance(29);
    await waitForRecheck(clock);
    expect(call.state()).toBe("pending");
    clock.advance(1);
    await vi.waitFor(() => expect(call.state()).toBe("fulfilled"), eventually);
  });

  it("rejects a sleeping waiter on abort, and the real sleep ends with it so the caller behind goes on", async () => {
    const clock = manualClock();
    const limiter = createSlidingWindowLimiter({ limit: 1, windowMs: 60_000, marginMs: 0, now: clock.now });
    const settleFirst = await limiter.acquire();
    settleFirst(); // clock 0: the waiter below sleeps a real 60 s
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    const outcome = track(waiting);
    const behind = track(limiter.acquire());
    await waitForRecheck(clock);
    clock.advance(60_000); // the slot is free, but the sleeping waiter cannot see it
    await ticks();
    expect(outcome.state()).toBe("pending");
    controller.abort(new Error("gave up"));
    await expect(waiting).rejects.toThrow("gave up");
    // Only an aborted sleep lets `behind` start now rather than a real minute later.
    await vi.waitFor(() => expect(behind.state()).toBe("fulfilled"), eventually);
    behind.settle();
  });

  it("rejects a waiter waiting for a request in flight on abort, and the caller behind starts a window after the settle", async () => {
    const clock = manualClock();
    const limiter = createSlidingWindowLimiter({ limit: 1, windowMs: 20, marginMs: 0, now: clock.now });
    const settleFirst = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    const behind = track(limiter.acquire());
    await waitForRecheck(clock);
    const readsBefore = clock.reads();
    controller.abort(new Error("gave up"));
    await expect(waiting).rejects.toThrow("gave up");
    // `behind` takes its turn and finds the window full.
    await vi.waitFor(() => expect(clock.reads()).toBeGreaterThan(readsBefore), eventually);
    expect(behind.state()).toBe("pending");
    settleFirst(); // clock 0
    await waitForRecheck(clock);
    expect(behind.state()).toBe("pending");
    clock.advance(20);
    await vi.waitFor(() => expect(behind.state()).toBe("fulfilled"), eventually);
  });
});
