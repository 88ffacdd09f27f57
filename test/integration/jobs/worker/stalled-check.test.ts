import { describe, expect } from "vitest";
import { PROJECT, type WorkerHarness } from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";

/**
 * A killed worker's job is taken over by the stalled check of another worker, between lock/2
 * and lock + stalled interval after the kill. What reaches BullMQ is visible in Redis: each
 * check marks the queue's `stalled-check` key for exactly one interval. The first check comes one
 * interval after the worker's start (slot-gated-worker.ts), so the wait for it is longer than that.
 */
describe("worker: stalled-job check interval", () => {
  let h: WorkerHarness;
  test.beforeEach(async ({ harness }) => {
    h = await harness.start();
  });

  async function stalledCheckTtl(intervalMs: number): Promise<number> {
    const key = `${h.redis.prefix}:project-${PROJECT}:stalled-check`;
    return waitFor(
      async () => {
        const ttl = await h.redis.redis.pttl(key);
        return ttl > 0 ? ttl : null;
      },
      { timeoutMs: 2 * intervalMs + 10_000, what: "the first stalled check" },
    );
  }

  test("defaults to half the lock duration", async () => {
    await h.startWorker(h.settings({ worker: { lock_duration_ms: 20_000, stalled_interval_ms: undefined } }));
    const ttl = await stalledCheckTtl(10_000);
    expect(ttl).toBeGreaterThan(8_000);
    expect(ttl).toBeLessThanOrEqual(10_000);
  });

  test("takes worker.stalled_interval_ms when set", async () => {
    await h.startWorker(h.settings({ worker: { lock_duration_ms: 20_000, stalled_interval_ms: 4_000 } }));
    const ttl = await stalledCheckTtl(4_000);
    expect(ttl).toBeGreaterThan(2_000);
    expect(ttl).toBeLessThanOrEqual(4_000);
  });
});
