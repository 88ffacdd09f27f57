import { describe, expect, it } from "vitest";
import { createConcurrencyLimiter } from "../../../../src/infra/http/concurrency-limiter.js";
import { deferred } from "../../../support/deferred.js";

/** Lets every queued microtask and promise reaction run (no timers involved). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
}

function track<T>(promise: Promise<T>): {
  state: () => "pending" | "fulfilled" | "rejected";
  value: () => T | undefined;
  reason: () => unknown;
} {
  let state: "pending" | "fulfilled" | "rejected" = "pending";
  let value: T | undefined;
  let reason: unknown;
  promise.then(
    (v) => {
      state = "fulfilled";
      value = v;
    },
    (r: unknown) => {
      state = "rejected";
      reason = r;
    },
  );
  return { state: () => state, value: () => value, reason: () => reason };
}

describe("createConcurrencyLimiter", () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("rejects the limit %s", (limit) => {
    expect(() => createConcurrencyLimiter(limit)).toThrow("concurrency limit must be a positive integer");
  });

  it("returns the task's value and starts idle", async () => {
    const limiter = createConcurrencyLimiter(2);
    expect(limiter.active).toBe(0);
    await expect(limiter.run(async () => 42)).resolves.toBe(42);
    expect(limiter.active).toBe(0);
  });

  it("runs at most `limit` tasks at once, and starts the others as slots free up", async () => {
    const limiter = createConcurrencyLimiter(2);
    const gates = [deferred(), deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    let running = 0;
    let maxRunning = 0;
    const runs = gates.map((gate, index) =>
      limiter.run(async () => {
        started.push(index);
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await gate.promise;
        running -= 1;
        return index;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect(limiter.active).toBe(2);

    gates[1]!.resolve();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    expect(limiter.active).toBe(2);

    gates[0]!.resolve();
    gates[2]!.resolve();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4]);

    gates[3]!.resolve();
    gates[4]!.resolve();
    await expect(Promise.all(runs)).resolves.toEqual([0, 1, 2, 3, 4]);
    expect(maxRunning).toBe(2);
    expect(limiter.active).toBe(0);
  });

  it("serves waiters first come, first served", async () => {
    const limiter = createConcurrencyLimiter(1);
    const order: string[] = [];
    const first = deferred();
    const runs = [
      limiter.run(async () => {
        order.push("first");
        await first.promise;
      }),
      ...["a", "b", "c", "d"].map((name) =>
        limiter.run(async () => {
          order.push(name);
        }),
      ),
    ];
    await settle();
    expect(order).toEqual(["first"]);
    first.resolve();
    await Promise.all(runs);
    expect(order).toEqual(["first", "a", "b", "c", "d"]);
  });

  it("never exceeds the limit under a random load (seeded)", async () => {
    let seed = 7;
    const next = (): number => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const limiter = createConcurrencyLimiter(3);
    let running = 0;
    let maxRunning = 0;
    const runs = Array.from({ length: 60 }, (_, index) =>
      limiter.run(async () => {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        expect(limiter.active).toBeLessThanOrEqual(3);
        const hops = Math.floor(next() * 10);
        for (let i = 0; i < hops; i += 1) await Promise.resolve();
        running -= 1;
        return index;
      }),
    );
    const results = await Promise.all(runs);
    expect(results).toEqual(Array.from({ length: 60 }, (_, index) => index));
    expect(maxRunning).toBe(3);
    expect(limiter.active).toBe(0);
  });

  it("releases the slot when the task throws (async) and passes the error on", async () => {
    const limiter = createConcurrencyLimiter(1);
    await expect(
      limiter.run(async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(limiter.active).toBe(0);
    await expect(limiter.run(async () => "after")).resolves.toBe("after");
  });

  it("releases the slot when the task throws synchronously", async () => {
    const limiter = createConcurrencyLimiter(1);
    await expect(
      limiter.run((): Promise<never> => {
        throw new Error("sync boom");
      }),
    ).rejects.toThrow("sync boom");
    expect(limiter.active).toBe(0);
  });

  it("hands a thrower's slot to the next waiter", async () => {
    const limiter = createConcurrencyLimiter(1);
    const gate = deferred();
    const failing = limiter.run(async () => {
      await gate.promise;
      throw new Error("fail");
    });
    const waiting = track(limiter.run(async () => "next"));
    await settle();
    expect(waiting.state()).toBe("pending");
    gate.resolve();
    await expect(failing).rejects.toThrow("fail");
    await settle();
    expect(waiting.state()).toBe("fulfilled");
    expect(waiting.value()).toBe("next");
    expect(limiter.active).toBe(0);
  });

  it("rejects at once with an already aborted signal, without running the task or taking a slot", async () => {
    const limiter = createConcurrencyLimiter(1);
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    let ran = false;
    await expect(
      limiter.run(async () => {
        ran = true;
      }, controller.signal),
    ).rejects.toThrow("cancelled");
    expect(ran).toBe(false);
    expect(limiter.active).toBe(0);
  });

  it("abort while waiting rejects with the signal's reason and removes the waiter", async () => {
    const limiter = createConcurrencyLimiter(1);
    const holder = deferred();
    const holding = limiter.run(() => holder.promise);
    const controller = new AbortController();
    let abortedRan = false;
    const aborted = track(
      limiter.run(async () => {
        abortedRan = true;
      }, controller.signal),
    );
    const after = track(limiter.run(async () => "after"));
    await settle();
    expect(aborted.state()).toBe("pending");

    const reason = new Error("stop waiting");
    controller.abort(reason);
    await settle();
    expect(aborted.state()).toBe("rejected");
    expect(aborted.reason()).toBe(reason);
    expect(limiter.active).toBe(1);

    holder.resolve();
    await holding;
    await settle();
    expect(abortedRan).toBe(false);
    expect(after.state()).toBe("fulfilled");
    expect(limiter.active).toBe(0);
  });

  it("an aborted waiter does not keep a slot once the holder releases", async () => {
    const limiter = createConcurrencyLimiter(1);
    const holder = deferred();
    const holding = limiter.run(() => holder.promise);
    const controller = new AbortController();
    const aborted = limiter.run(async () => undefined, controller.signal);
    controller.abort();
    await expect(aborted).rejects.toThrow();
    holder.resolve();
    await holding;
    expect(limiter.active).toBe(0);
    // The freed slot is really free: a new task runs at once.
    const next = track(limiter.run(async () => "free"));
    await settle();
    expect(next.state()).toBe("fulfilled");
  });

  it("rejects with an Error even when aborted with a non-Error reason", async () => {
    const limiter = createConcurrencyLimiter(1);
    const holder = deferred();
    const holding = limiter.run(() => holder.promise);
    const controller = new AbortController();
    const waiting = limiter.run(async () => undefined, controller.signal);
    controller.abort("just a string");
    await expect(waiting).rejects.toBeInstanceOf(Error);
    holder.resolve();
    await holding;
  });

  it("ignores an abort that comes after the slot was granted", async () => {
    const limiter = createConcurrencyLimiter(1);
    const controller = new AbortController();
    const gate = deferred();
    const running = limiter.run(async () => {
      await gate.promise;
      return "done";
    }, controller.signal);
    await settle();
    controller.abort();
    gate.resolve();
    await expect(running).resolves.toBe("done");
    expect(limiter.active).toBe(0);
  });

  it("ignores an abort that comes after a waiter was granted its slot", async () => {
    const limiter = createConcurrencyLimiter(1);
    const holder = deferred();
    const holding = limiter.run(() => holder.promise);
    const controller = new AbortController();
    const gate = deferred();
    const waiter = limiter.run(async () => {
      await gate.promise;
      return "granted";
    }, controller.signal);
    holder.resolve();
    await holding;
    await settle();
    expect(limiter.active).toBe(1);
    controller.abort();
    const other = track(limiter.run(async () => "other"));
    await settle();
    // The slot stays with the granted waiter: the abort freed nothing.
    expect(other.state()).toBe("pending");
    gate.resolve();
    await expect(waiter).resolves.toBe("granted");
    await settle();
    expect(other.state()).toBe("fulfilled");
    expect(limiter.active).toBe(0);
  });

  it("acquire holds a slot until its release, which counts once however often it is called", async () => {
    const limiter = createConcurrencyLimiter(1);
    const release = await limiter.acquire();
    const waiting = track(limiter.acquire());
    await settle();
    expect(waiting.state()).toBe("pending");
    release();
    release();
    await settle();
    expect(waiting.state()).toBe("fulfilled");
    expect(limiter.active).toBe(1);
    waiting.value()?.();
    expect(limiter.active).toBe(0);
  });

  it("acquire gives up its place in line when its signal aborts", async () => {
    const limiter = createConcurrencyLimiter(1);
    const release = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error("closing"));
    await expect(waiting).rejects.toThrow("closing");
    release();
    expect(limiter.active).toBe(0);
  });
});
