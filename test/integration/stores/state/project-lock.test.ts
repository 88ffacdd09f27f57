import { describe, expect } from "vitest";
import { createProjectLock, ProjectBusy } from "../../../../src/stores/state/project-lock.js";
import type { TestRedis } from "../../../support/redis.js";
import { waitFor } from "../../../support/wait-for.js";
// `test` names the Redis of each test here; the fixtures' test is imported as `it`.
import { test as it } from "../../../support/fixtures.js";

describe("project lock", () => {
  let test: TestRedis;
  it.beforeEach(({ redis }) => {
    test = redis;
  });

  it("refuses a second holder, naming the first, until the first releases it", async () => {
    const lock = createProjectLock(test.redis, test.prefix, { ttlMs: 5_000 });
    const first = await lock.tryAcquire(67, "job 67/1");
    const refused = await lock.tryAcquire(67, "sync --once").then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ProjectBusy);
    expect((refused as Error).message).toBe(
      "project 67 is busy: job 67/1 holds its lock; nothing was written, try again when it has finished",
    );
    // Other projects are independent.
    await (await lock.tryAcquire(99, "job 99/1")).release();
    await first.release();
    await (await lock.tryAcquire(67, "sync --once")).release();
    expect(await test.keys()).toEqual([]);
  });

  it("a waiting holder gets the lock once it is released, and is told who held it", async () => {
    const lock = createProjectLock(test.redis, test.prefix, { ttlMs: 5_000 });
    const first = await lock.tryAcquire(67, "sync --once");
    const seen: string[] = [];
    const second = lock.acquire(67, "job 67/2", { onWait: (heldBy) => seen.push(heldBy) });
    await waitFor(() => seen.length > 0, { timeoutMs: 5_000, what: "the waiter to be told" });
    await first.release();
    const lease = await second;
    expect(seen).toEqual(["sync --once"]);
    await lease.release();
  });

  it("stays held while renewed, well past its time to live", async () => {
    const lock = createProjectLock(test.redis, test.prefix, { ttlMs: 600 });
    const lease = await lock.tryAcquire(67, "job 67/3");
    const key = `${test.prefix}:lock:project:67`;
    // Renewed every 200 ms: still there after several times its time to live.
    const until = Date.now() + 2_000;
    await waitFor(async () => Date.now() >= until && (await test.redis.exists(key)) === 1, {
      timeoutMs: 5_000,
      what: "the lock to outlive its ttl",
    });
    expect(lease.signal.aborted).toBe(false);
    await lease.release();
    expect(await test.redis.exists(key)).toBe(0);
  });

  it("a holder whose lock was taken over is told (its signal aborts), and its release leaves the new holder's lock alone", async () => {
    const lock = createProjectLock(test.redis, test.prefix, { ttlMs: 600 });
    const lease = await lock.tryAcquire(67, "job 67/4");
    const key = `${test.prefix}:lock:project:67`;
    // As if it had expired and another process had taken it.
    await test.redis.set(key, JSON.stringify({ token: "other", holder: "sync --once" }), "PX", 10_000);
    await waitFor(() => lease.signal.aborted, { timeoutMs: 5_000, what: "the lease to notice" });
    expect(String(lease.signal.reason)).toMatch(/lost the project lock/);
    await lease.release();
    expect(JSON.parse((await test.redis.get(key)) ?? "null")).toEqual({ token: "other", holder: "sync --once" });
  });
});
