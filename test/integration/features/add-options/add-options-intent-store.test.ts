import { describe, expect } from "vitest";
import { createAddOptionsIntentStore } from "../../../../src/features/add-options/add-options-intent-store.js";
import { test, type PimSyncFixtures } from "../../../support/fixtures.js";

describe("add-options intents in Redis", () => {
  let fixtures: Pick<PimSyncFixtures, "redis">;

  test.beforeEach(({ redis }) => {
    fixtures = { redis };
  });

  test("records per request and collection, lower-cased, forgets refused names, and reads every request in one go", async () => {
    const store = createAddOptionsIntentStore(fixtures.redis.redis, fixtures.redis.prefix);
    await store.record(
      67,
      "color",
      new Map([
        ["12", ["Teal", "navy"]],
        ["13", ["olive"]],
      ]),
    );
    await store.record(67, "color-en_US", new Map([["12", ["Teal"]]]));
    await store.forget(67, "color", new Map([["12", ["NAVY"]]]));

    const read = await store.read(67, ["12", "13", "14"]);
    expect([...read.keys()]).toEqual(["12", "13"]);
    expect(read.get("12")).toEqual(
      new Map([
        ["color", new Set(["teal"])],
        ["color-en_US", new Set(["teal"])],
      ]),
    );
    expect(read.get("13")).toEqual(new Map([["color", new Set(["olive"])]]));
    // Another project's requests are apart.
    expect((await store.read(99, ["12"])).size).toBe(0);
  });

  test("expires each request's record with the outcomes' time to live, refreshed by every write", async () => {
    const store = createAddOptionsIntentStore(fixtures.redis.redis, fixtures.redis.prefix, 600);
    await store.record(67, "color", new Map([["12", ["teal"]]]));
    const [key] = await fixtures.redis.keys();
    expect(key).toBe(`${fixtures.redis.prefix}:add-intent:67:12`);
    const ttl = await fixtures.redis.redis.ttl(key ?? "");
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(600);
  });

  test("ignores a field of another shape rather than trusting it", async () => {
    const store = createAddOptionsIntentStore(fixtures.redis.redis, fixtures.redis.prefix);
    await fixtures.redis.redis.hset(
      `${fixtures.redis.prefix}:add-intent:67:12`,
      "not json",
      "1",
      JSON.stringify({ collection: "color" }),
      "1",
      JSON.stringify(["color", "teal"]),
      "1",
    );
    expect(await store.read(67, ["12"])).toEqual(new Map([["12", new Map([["color", new Set(["teal"])]])]]));
  });
});
