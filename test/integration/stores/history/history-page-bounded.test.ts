import { describe, expect } from "vitest";
import type { RedisClient } from "../../../../src/infra/redis/redis-client.js";
import { keyspaceOf } from "../../../../src/infra/redis/keyspace.js";
import { dailyWriteCounts } from "../../../../src/stores/history/daily-write-counts.js";
import { queryHistory } from "../../../../src/stores/history/query-history.js";
import { createRedisHistoryStore } from "../../../../src/stores/history/redis-history-store.js";
import { test } from "../../../support/fixtures.js";

const DAY_MS = 86_400_000;
const RETENTION_MS = 40 * DAY_MS;
const BATCHES_PER_DAY = 6;
const STREAM_READS = new Set(["xrange", "xrevrange"]);

/** The client, with a count of the stream reads made through it (every other call passed on as it is). */
function countingReads(redis: RedisClient, onRead?: (reads: number) => void): { client: RedisClient; reads: () => number } {
  let reads = 0;
  const client = new Proxy(redis, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof property !== "string" || !STREAM_READS.has(property) || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        reads += 1;
        onRead?.(reads);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { client, reads: () => reads };
}

/** `days` days of history (the newest today), BATCHES_PER_DAY batches of 2 options a day, written with their ids in the past. */
async function writeHistory(redis: RedisClient, prefix: string, project: number, days: number, nowMs: number): Promise<void> {
  const key = keyspaceOf(redis, prefix).projectKey(project, "history");
  for (let back = days - 1; back >= 0; back -= 1) {
    const dayStart = Math.floor(nowMs / DAY_MS) * DAY_MS - back * DAY_MS;
    for (let i = 0; i < BATCHES_PER_DAY; i += 1) {
      const atMs = Math.min(dayStart + 60_000 * (i + 1), nowMs - (BATCHES_PER_DAY - i));
      const batch = [
        {
          collection: "color",
          kind: i % 2 === 0 ? "added" : "deleted",
          reason: "r",
          job: "67/1",
          trigger: "schedule",
          at: new Date(atMs).toISOString(),
          options: ["a", "b"],
        },
      ];
      await redis.xadd(key, `${atMs}-${i}`, "b", JSON.stringify(batch));
    }
  }
}

describe("the console's history reads: bounded whatever the retention holds, and stopped with their request", () => {
  test("a view of the daily counts reads as much with 35 days of history as with 5, and counts every write", async ({ redis }) => {
    const nowMs = Date.now();
    await writeHistory(redis.redis, redis.prefix, 1, 5, nowMs);
    await writeHistory(redis.redis, redis.prefix, 2, 35, nowMs);
    const warmReads = async (project: number): Promise<{ reads: number; total: number }> => {
      const counted = countingReads(redis.redis);
      const store = createRedisHistoryStore(counted.client, redis.prefix, { retentionMs: RETENTION_MS });
      const query = { sinceMs: nowMs - RETENTION_MS, nowMs };
      const cold = await dailyWriteCounts(store, project, query);
      const before = counted.reads();
      const warm = await dailyWriteCounts(store, project, query);
      expect(warm).toEqual(cold);
      return { reads: counted.reads() - before, total: warm.reduce((sum, day) => sum + day.total, 0) };
    };
    const short = await warmReads(1);
    const long = await warmReads(2);
    expect(short.total).toBe(5 * BATCHES_PER_DAY * 2);
    expect(long.total).toBe(35 * BATCHES_PER_DAY * 2);
    // Today and the period's first (partial) day, read from the stream; the days between kept.
    expect(long.reads).toBe(short.reads);
    expect(long.reads).toBeLessThanOrEqual(2);
  });

  test("a search whose request went away stops reading the stream at once", async ({ redis }) => {
    const nowMs = Date.now();
    await writeHistory(redis.redis, redis.prefix, 3, 35, nowMs);
    const request = new AbortController();
    // The client goes away while the second read is under way.
    const counted = countingReads(redis.redis, (reads) => {
      if (reads === 2) request.abort(new Error("request closed"));
    });
    const store = createRedisHistoryStore(counted.client, redis.prefix, { retentionMs: RETENTION_MS });
    await expect(
      queryHistory(store, 3, { option: "nothing-has-this-name", sinceMs: 0, limit: 100, signal: request.signal }),
    ).rejects.toThrow("request closed");
    expect(counted.reads()).toBe(2);

    const cold = new AbortController();
    const countedDays = countingReads(redis.redis, (reads) => {
      if (reads === 1) cold.abort(new Error("request timed out"));
    });
    const days = createRedisHistoryStore(countedDays.client, redis.prefix, { retentionMs: RETENTION_MS });
    await expect(dailyWriteCounts(days, 3, { sinceMs: nowMs - RETENTION_MS, nowMs, signal: cold.signal })).rejects.toThrow(
      "request timed out",
    );
    expect(countedDays.reads()).toBe(1);
  });
});
