import { describe, expect } from "vitest";
import { createPimEventStore, SEEN_DAYS, type RecordedEvent } from "../../../../src/features/events/pim-event-store.js";
import { keyspaceOf } from "../../../../src/infra/redis/keyspace.js";
import { test } from "../../../support/fixtures.js";
import type { TestRedis } from "../../../support/redis.js";

const PROJECT = 67;
const DAY_MS = 86_400_000;
/**
 * Noon UTC today, so that "a day later" is another day's hash; today, as a day's hash expires a
 * window after its day ends (a day long past would be gone as soon as written).
 */
const NOON = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS / 2;

function event(id: string, receivedAt: number): RecordedEvent {
  return {
    id,
    type: "com.akeneo.pim.v1.attribute-option.created",
    subject: "tenant",
    correlationId: null,
    target: `o:color:${id}`,
    ignored: null,
    receivedAt,
  };
}

async function keysOf(redis: TestRedis): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await redis.redis.scan(cursor, "MATCH", `${redis.prefix}:*`, "COUNT", 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== "0");
  return found;
}

describe("PIM event store: a redelivery is a duplicate for the whole window, with no key per event", () => {
  test("a redelivery is a duplicate the same day, a day later and on the last day of the window; a new event after it", async ({
    redis,
  }) => {
    const store = createPimEventStore(redis.redis, keyspaceOf(redis.redis, redis.prefix));
    expect(await store.record(PROJECT, event("evt-1", NOON))).toBe(true);
    expect(await store.record(PROJECT, event("evt-1", NOON + 1_000))).toBe(false);
    expect(await store.record(PROJECT, event("evt-1", NOON + DAY_MS))).toBe(false);
    // 7 days and 11 hours after the first delivery: still inside the window.
    expect(await store.record(PROJECT, event("evt-1", NOON + SEEN_DAYS * DAY_MS + 11 * 3_600_000))).toBe(false);
    // Another project's event of the same id is its own.
    expect(await store.record(68, event("evt-1", NOON))).toBe(true);
    // Past the window (its day's hash is no longer looked at, and Redis expires it by then).
    expect(await store.record(PROJECT, event("evt-1", NOON + (SEEN_DAYS + 2) * DAY_MS))).toBe(true);
  });

  test("a redelivery recorded by a process whose clock was a little ahead, over midnight, is a duplicate", async ({ redis }) => {
    const store = createPimEventStore(redis.redis, keyspaceOf(redis.redis, redis.prefix));
    const midnight = Math.ceil(Date.now() / DAY_MS) * DAY_MS;
    expect(await store.record(PROJECT, event("evt-2", midnight + 500))).toBe(true);
    expect(await store.record(PROJECT, event("evt-2", midnight - 500))).toBe(false);
  });

  test("1,000 events leave a fixed number of keys, each day's hash expiring a window after its day", async ({ redis }) => {
    const store = createPimEventStore(redis.redis, keyspaceOf(redis.redis, redis.prefix));
    const now = Date.now();
    expect(await store.record(PROJECT, event("first", now))).toBe(true);
    const before = (await keysOf(redis)).length;
    for (let index = 0; index < 1_000; index += 1) expect(await store.record(PROJECT, event(`evt-${index}`, now))).toBe(true);
    expect((await keysOf(redis)).length).toBe(before);
    const dayHash = `${redis.prefix}:pim-events:${PROJECT}:seen-on:${Math.floor(now / DAY_MS)}`;
    expect(await redis.redis.hlen(dayHash)).toBe(1_001);
    const ttl = await redis.redis.ttl(dayHash);
    expect(ttl).toBeGreaterThan(SEEN_DAYS * 86_400);
    expect(ttl).toBeLessThanOrEqual((SEEN_DAYS + 1) * 86_400);
  });

  test("an event marked by the versions before (one key per event) is still a duplicate", async ({ redis }) => {
    const store = createPimEventStore(redis.redis, keyspaceOf(redis.redis, redis.prefix));
    await redis.redis.set(`${redis.prefix}:pim-events:${PROJECT}:seen:evt-old`, "1", "EX", 600);
    expect(await store.record(PROJECT, event("evt-old", Date.now()))).toBe(false);
    expect(await store.record(PROJECT, event("evt-new", Date.now()))).toBe(true);
  });
});
