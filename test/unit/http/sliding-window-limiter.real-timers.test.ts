import { describe, expect, it, vi } from "vitest";
import { createSlidingWindowLimiter } from "../../../src/http/sliding-window-limiter.js";

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

/** Waits until the limiter has looked at the clock again, i.e. a real sleep ended and it re-checked. */
async function waitForRecheck(clock: { reads: () => number }, times = 2): Promise<void> {
  const target = clock.reads() + times;
  await vi.waitFor(() => expect(clock.reads()).toBeGreaterThanOrEqual(target), { timeout: 2000, interval: 2 });
}

function track(promise: Promise<void>): { state: () => "pending" | "fulfilled" | "rejected" } {
  let state: "pending" | "fulfilled" | "rejected" = "pending";
  promise.then(
    () => void (state = "fulfilled"),
    () => void (state = "rejected"),
  );
  return { state: () => state };
}

async function ticks(n = 20): Promise<void> {
  for (let i = 0; i < n; i += 1) await Promise.resolve();
}

describe("createSlidingWindowLimiter with real sleeps and an injected clock", () => {
  it("starts a waiter only once the injected clock has moved past the window", async () => {
    const clock = manualClock();
    const limiter = createSlidingWindowLimiter({ limit: 1, windowMs: 20, marginMs: 0, now: clock.now });
    await limiter.acquire();
    const second = track(limiter.acquire());
    await waitForRecheck(clock);
    expect(second.state()).toBe("pending");
    clock.advance(19);
    await waitForRecheck(clock);
    expect(second.state()).toBe("pending");
    clock.advance(1);
    await vi.waitFor(() => expect(second.state()).toBe("fulfilled"), { timeout: 2000, interval: 5 });
  });

  it("waits out a pause on the injected clock", async () => {
    const clock = manualClock();
    const limiter = createSlidingWindowLimiter({ limit: 5, windowMs: 1000, marginMs: 0, now: clock.now });
    limiter.pauseFor(30);
    const call = track(limiter.acquire());
    await waitForRecheck(clock);
    expect(call.state()).toBe("pending");
    clock.advance(30);
    await vi.waitFor(() => expect(call.state()).toBe("fulfilled"), { timeout: 2000, interval: 5 });
  });

  it("rejects a sleeping waiter on abort, with the real abortable sleep", async () => {
    const clock = manualClock();
    const limiter = createSlidingWindowLimiter({ limit: 1, windowMs: 60_000, marginMs: 0, now: clock.now });
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    const outcome = track(waiting);
    await ticks();
    controller.abort();
    await expect(waiting).rejects.toThrow();
    expect(outcome.state()).toBe("rejected");
  });
});
