import { describe, expect, it } from "vitest";
import { createRankedSlots } from "../../../../src/jobs/worker/ranked-slots.js";
import { jobRank, SMALL_JOB_HEAD_START_MS } from "../../../../src/jobs/worker/job-rank.js";

/** Takes `count` waiters' grants in the order they come, after the holder releases. */
async function grantOrder(ranks: readonly number[]): Promise<number[]> {
  const slots = createRankedSlots(1);
  const release = await slots.acquire();
  const order: number[] = [];
  const waits = ranks.map((rank, index) =>
    slots.acquireRanked(rank).then((done) => {
      order.push(index);
      done();
    }),
  );
  expect(slots.waiting).toBe(ranks.length);
  release();
  await Promise.all(waits);
  return order;
}

describe("ranked slots: a freed slot goes to the lowest rank", () => {
  it("serves the lowest rank first, equal ranks first come first served", async () => {
    expect(await grantOrder([30, 10, 20, 10])).toEqual([1, 3, 2, 0]);
  });

  it("holds at most its limit, and counts holders and waiters", async () => {
    const slots = createRankedSlots(2);
    const a = await slots.acquireRanked(5);
    await slots.acquireRanked(5);
    expect(slots.free).toBe(0);
    const third = slots.acquireRanked(1);
    expect(slots.waiting).toBe(1);
    a();
    a(); // idempotent: the second release frees nothing more
    await third;
    expect([slots.active, slots.waiting, slots.free]).toEqual([2, 0, 0]);
  });

  it("drops a waiter whose signal aborts", async () => {
    const slots = createRankedSlots(1);
    const release = await slots.acquire();
    const abort = new AbortController();
    const aborted = slots.acquireRanked(1, abort.signal);
    const other = slots.acquireRanked(2);
    abort.abort(new Error("closing"));
    await expect(aborted).rejects.toThrow("closing");
    release();
    await other;
    expect(slots.active).toBe(1);
  });
});

describe("job rank: small jobs ahead of full syncs, with aging", () => {
  const now = 1_000_000_000;
  it("puts a small job queued after a full sync ahead of it", () => {
    expect(jobRank("sync.events", now + 1_000)).toBeLessThan(jobRank("sync.run", now));
    expect(jobRank("options.add", now + 1_000)).toBeLessThan(jobRank("sync.run", now));
  });

  it("lets a full sync that waited longer than the head start go first", () => {
    expect(jobRank("sync.run", now)).toBeLessThan(jobRank("sync.events", now + SMALL_JOB_HEAD_START_MS + 1));
  });

  it("keeps first come first served within a class", () => {
    expect(jobRank("sync.run", now)).toBeLessThan(jobRank("sync.run", now + 1));
    expect(jobRank("options.add", now)).toBeLessThan(jobRank("sync.events", now + 1));
  });
});
