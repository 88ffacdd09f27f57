import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, vi } from "vitest";
import type { ServiceLabels, ServiceOption } from "../../../../src/core/domain/option-collection.js";
import { createFileStateStore } from "../../../../src/stores/state/file-state-store.js";
import { createRedisStateStore } from "../../../../src/stores/state/redis-state-store.js";
import { keyspaceOf } from "../../../../src/infra/redis/keyspace.js";
import type { StateStore } from "../../../../src/stores/state/state-store.js";
import { createTestRedis, type TestRedis } from "../../../support/redis.js";
// `test` names a test's Redis in this file; the fixtures' test is imported as `it`.
import { test as it } from "../../../support/fixtures.js";

/** Options as add-options records them (labels do not matter where these are used). */
function added(...names: string[]): { name: string; label: Record<string, string> }[] {
  return names.map((name) => ({ name, label: {} }));
}

function addedNames(recent: ReadonlyMap<string, unknown>): Set<string> {
  return new Set(recent.keys());
}

interface Harness {
  readonly store: StateStore;
  /**
   * Stores labels that are not a locale → text map under `name`, bypassing the store. Returns
   * the text the read error must contain to say where the bad value is.
   */
  corruptLabels(project: number, collection: string, name: string): Promise<string>;
  /** Moves the collection's deletion records `byMs` into the past, bypassing the store (no test waits for a window). */
  ageDeletions(project: number, collection: string, byMs: number): Promise<void>;
  teardown(): Promise<void>;
}

interface Factory {
  readonly name: string;
  readonly create: () => Promise<Harness>;
}

const redisFactory: Factory = {
  name: "redis",
  async create() {
    const test = await createTestRedis();
    const store = createRedisStateStore(test.redis, test.prefix);
    return {
      store,
      async corruptLabels(project, collection, name) {
        const key = `${test.prefix}:state:${project}:c:${collection}`;
        await test.redis.hset(key, name, JSON.stringify({ "en-US": 5 }));
        await test.redis.sadd(`${test.prefix}:state:${project}:known`, collection);
        return `${key}#${name}`;
      },
      async ageDeletions(project, collection, byMs) {
        const key = keyspaceOf(test.redis, test.prefix).projectKey(project, "state", "d", collection);
        const scored = await test.redis.zrange(key, 0, -1, "WITHSCORES");
        for (let i = 0; i + 1 < scored.length; i += 2) await test.redis.zadd(key, Number(scored[i + 1]) - byMs, scored[i] ?? "");
      },
      async teardown() {
        await store.close();
        await test.cleanup();
      },
    };
  },
};

const fileFactory: Factory = {
  name: "file",
  async create() {
    const dir = await mkdtemp(join(tmpdir(), "pim-sync-state-"));
    const store = createFileStateStore(dir);
    return {
      store,
      async corruptLabels(project, collection, name) {
        const folder = join(dir, `project-${project}`);
        await mkdir(folder, { recursive: true });
        const file = join(folder, `${encodeURIComponent(collection)}.json`);
        await writeFile(file, JSON.stringify({ [name]: { "en-US": 5 } }));
        return `${file}#${name}`;
      },
      async ageDeletions(project, collection, byMs) {
        const file = join(dir, `project-${project}`, "deleted", `${encodeURIComponent(collection)}.json`);
        const records = JSON.parse(await readFile(file, "utf8")) as [number, number][];
        await writeFile(file, JSON.stringify(records.map(([at, count]) => [at - byMs, count])));
      },
      async teardown() {
        await store.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};

function opt(name: string, label: ServiceLabels = { "en-US": name }): ServiceOption {
  return { name, label };
}

function mapOf(...options: ServiceOption[]): Map<string, ServiceLabels> {
  return new Map(options.map((o) => [o.name, o.label]));
}

function bulk(count: number, prefix = "option_"): ServiceOption[] {
  return Array.from({ length: count }, (_, i) =>
    opt(
      `${prefix}${i}`,
      i % 3 === 0 ? { "en-US": `Option ${i}`, "fr-FR": `Option ${i} (fr)`, "de-DE": `Option ${i} (de)` } : { "en-US": `Option ${i}` },
    ),
  );
}

describe.each([redisFactory, fileFactory])("$name state store", ({ create }) => {
  let harness: Harness;
  let store: StateStore;

  beforeEach(async () => {
    harness = await create();
    store = harness.store;
  });

  afterEach(async () => {
    await harness.teardown();
  });

  it("reads null for a collection never written", async () => {
    expect(await store.read(1, "color")).toBeNull();
  });

  it("reads back what was replaced", async () => {
    await store.replace(1, "color", [opt("red", { "en-US": "Red", "fr-FR": "Rouge" }), opt("blue")]);
    expect(await store.read(1, "color")).toEqual(mapOf(opt("red", { "en-US": "Red", "fr-FR": "Rouge" }), opt("blue")));
  });

  it("reads an empty Map, not null, after a replace with no option", async () => {
    await store.replace(1, "color", []);
    const read = await store.read(1, "color");
    expect(read).not.toBeNull();
    expect(read).toBeInstanceOf(Map);
    expect(read?.size).toBe(0);
  });

  it("reads some entries: only the wanted names' labels, with the whole state's size; null when never written", async () => {
    expect(await store.readSome(1, "color", () => true)).toBeNull();
    await store.replace(1, "color", [opt("Red", { "en-US": "Red" }), opt("blue"), opt("green")]);
    const some = await store.readSome(1, "color", (name) => name.toLowerCase() === "red");
    expect(some).toEqual({ entries: mapOf(opt("Red", { "en-US": "Red" })), size: 3 });
    expect(await store.readSome(1, "color", () => false)).toEqual({ entries: new Map(), size: 3 });
    await store.replace(1, "empty", []);
    expect(await store.readSome(1, "empty", () => true)).toEqual({ entries: new Map(), size: 0 });
  });

  it("a second replace drops every option of the first", async () => {
    await store.replace(1, "color", [opt("red"), opt("blue")]);
    await store.replace(1, "color", [opt("green")]);
    expect(await store.read(1, "color")).toEqual(mapOf(opt("green")));
    await store.replace(1, "color", []);
    expect((await store.read(1, "color"))?.size).toBe(0);
  });

  it("update upserts (new and relabelled) and deletes", async () => {
    await store.replace(1, "color", [opt("red", { "en-US": "Red" }), opt("blue"), opt("gone")]);
    await store.update(1, "color", [opt("red", { "en-US": "Crimson" }), opt("green")], ["gone", "never-there"]);
    expect(await store.read(1, "color")).toEqual(mapOf(opt("red", { "en-US": "Crimson" }), opt("blue"), opt("green")));
  });

  it("an upsert replaces an option's labels as a whole (a removed locale is gone)", async () => {
    await store.replace(1, "color", [opt("red", { "en-US": "Red", "fr-FR": "Rouge" })]);
    await store.update(1, "color", [opt("red", { "en-US": "Red" })], []);
    expect((await store.read(1, "color"))?.get("red")).toEqual({ "en-US": "Red" });
  });

  it("update with nothing to do leaves the collection as it was", async () => {
    await store.replace(1, "color", [opt("red")]);
    await store.update(1, "color", [], []);
    expect(await store.read(1, "color")).toEqual(mapOf(opt("red")));
  });

  it("update of a collection never written records it", async () => {
    await store.update(1, "color", [opt("red")], ["x"]);
    expect(await store.read(1, "color")).toEqual(mapOf(opt("red")));
  });

  it("update deleting every option leaves a known, empty collection", async () => {
    await store.replace(1, "color", [opt("red"), opt("blue")]);
    await store.update(1, "color", [], ["red", "blue"]);
    const read = await store.read(1, "color");
    expect(read).not.toBeNull();
    expect(read?.size).toBe(0);
  });

  it("forget makes the collection unknown again", async () => {
    await store.replace(1, "color", [opt("red")]);
    await store.forget(1, "color");
    expect(await store.read(1, "color")).toBeNull();
  });

  it("forget of an empty collection makes it unknown too", async () => {
    await store.replace(1, "color", []);
    await store.forget(1, "color");
    expect(await store.read(1, "color")).toBeNull();
  });

  it("forget of a collection never written is harmless", async () => {
    await expect(store.forget(1, "nothing")).resolves.toBeUndefined();
    expect(await store.read(1, "nothing")).toBeNull();
  });

  it("a forgotten collection can be written again from scratch", async () => {
    await store.replace(1, "color", [opt("red"), opt("blue")]);
    await store.forget(1, "color");
    await store.update(1, "color", [opt("green")], []);
    expect(await store.read(1, "color")).toEqual(mapOf(opt("green")));
  });

  it("keeps collections and projects apart", async () => {
    await store.replace(1, "color", [opt("red")]);
    await store.replace(1, "size", [opt("xl")]);
    await store.replace(2, "color", [opt("blue")]);
    await store.update(1, "size", [opt("s")], ["xl"]);
    await store.forget(2, "color");
    expect(await store.read(1, "color")).toEqual(mapOf(opt("red")));
    expect(await store.read(1, "size")).toEqual(mapOf(opt("s")));
    expect(await store.read(2, "color")).toBeNull();
    expect(await store.read(2, "size")).toBeNull();
  });

  it("round-trips labels exactly: unicode, many locales, spaces, quotes, no label at all", async () => {
    const options = [
      opt("multi", { "en-US": "Red", "fr-FR": "Rouge", "de-DE": "Rot", "zh-Hant-TW": "紅色", "ja-JP": "赤", "ar-SA": "أحمر" }),
      opt("spaces", { "en-US": "  padded  ", "fr-FR": "tab\there\nnewline" }),
      opt("quotes", { "en-US": 'say "hi" \\ back\\slash', "fr-FR": "l'été" }),
      opt("emoji", { "en-US": "🔴 red 👍🏽" }),
      opt("empty-labels", {}),
    ];
    await store.replace(3, "labels", options);
    const read = await store.read(3, "labels");
    expect(read).toEqual(mapOf(...options));
    // Exact strings, not merely equal-looking ones.
    expect(read?.get("spaces")?.["en-US"]).toBe("  padded  ");
    expect(read?.get("emoji")?.["en-US"]).toBe("🔴 red 👍🏽");
  });

  it("keeps option names that are special to JavaScript objects or to the store's format", async () => {
    const options = [
      opt("__proto__", { "en-US": "proto" }),
      opt("constructor", { "en-US": "ctor" }),
      opt("toString"),
      opt("a:b", { "en-US": "colon" }),
      opt("a#b", { "en-US": "hash" }),
      opt("with space"),
      opt("名前"),
    ];
    await store.replace(1, "names", options);
    const read = await store.read(1, "names");
    expect(read?.size).toBe(options.length);
    expect([...(read?.keys() ?? [])].sort()).toEqual(options.map((o) => o.name).sort());
    expect(read?.get("__proto__")).toEqual({ "en-US": "proto" });
    expect(read?.get("constructor")).toEqual({ "en-US": "ctor" });
    await store.update(1, "names", [opt("__proto__", { "en-US": "proto 2" })], ["constructor"]);
    const after = await store.read(1, "names");
    expect(after?.get("__proto__")).toEqual({ "en-US": "proto 2" });
    expect(after?.has("constructor")).toBe(false);
  });

  it.each(["size:eu", "a/b", "../escape", "with space", "unicode-名前-ü-🎨", "mixed: a/b c ü", "a%2Fb", ".", "..", "*?[glob]"])(
    "handles the collection name %j",
    async (collection) => {
      await store.replace(4, collection, [opt("x", { "en-US": "X" })]);
      expect(await store.read(4, collection)).toEqual(mapOf(opt("x", { "en-US": "X" })));
      await store.update(4, collection, [opt("y")], ["x"]);
      expect(await store.read(4, collection)).toEqual(mapOf(opt("y")));
      await store.forget(4, collection);
      expect(await store.read(4, collection)).toBeNull();
    },
  );

  it("never mixes up collections whose names differ only by characters an encoding could merge", async () => {
    const names = ["a/b", "a%2Fb", "a:b", "a b", "a+b", "A/b", "a_b", "a.b"];
    for (const [index, name] of names.entries()) await store.replace(5, name, [opt(`only-${index}`)]);
    for (const [index, name] of names.entries()) expect(await store.read(5, name)).toEqual(mapOf(opt(`only-${index}`)));
  });

  it("writes different collections concurrently without losing any", async () => {
    const names = Array.from({ length: 20 }, (_, i) => `concurrent-${i}`);
    await Promise.all(names.map((name, i) => store.replace(6, name, bulk(i + 1, `${name}-`))));
    for (const [i, name] of names.entries()) expect((await store.read(6, name))?.size).toBe(i + 1);
  });

  it("replaces and reads back 25,000 options", async () => {
    const options = bulk(25_000);
    await store.replace(7, "huge", options);
    const read = await store.read(7, "huge");
    expect(read?.size).toBe(25_000);
    expect(read).toEqual(mapOf(...options));
  });

  it("updates a 25,000-option collection in bulk (12,000 deletes, 5,000 upserts)", async () => {
    const options = bulk(25_000);
    await store.replace(7, "huge", options);
    const deletes = options.slice(0, 12_000).map((o) => o.name);
    const added = bulk(2_500, "added_");
    const upserts = [...options.slice(12_000, 14_500).map((o) => opt(o.name, { "en-US": `${o.name} v2` })), ...added];
    await store.update(7, "huge", upserts, deletes);
    const read = await store.read(7, "huge");
    expect(read?.size).toBe(25_000 - 12_000 + 2_500);
    expect(read?.has("option_0")).toBe(false);
    expect(read?.has("option_11999")).toBe(false);
    expect(read?.get("option_12000")).toEqual({ "en-US": "option_12000 v2" });
    expect(read?.get("option_14500")).toEqual(options[14_500]!.label);
    expect(read?.get("added_2499")).toEqual(added[2_499]!.label);
    expect(read?.get("added_0")).toEqual({ "en-US": "Option 0", "fr-FR": "Option 0 (fr)", "de-DE": "Option 0 (de)" });
  });

  it("fails to read a stored value that is not a labels map, naming where it is", async () => {
    const where = await harness.corruptLabels(8, "broken:coll", "bad");
    const error = await store.read(8, "broken:coll").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(where);
    expect((error as Error).message).toContain("corrupt state");
  });

  describe("deletions counted for the guard's window", () => {
    it("counts the deletions made within the window, by the store's clock, and drops older records", async () => {
      expect(await store.deletedWithin(1, "color", 60_000)).toBe(0);
      await store.recordDeleted(1, "color", 3);
      await store.recordDeleted(1, "color", 3);
      await harness.ageDeletions(1, "color", 10_000);
      await store.recordDeleted(1, "color", 4);
      await store.recordDeleted(1, "size", 7);
      expect(await store.deletedWithin(1, "color", 60_000)).toBe(10);
      expect(await store.deletedWithin(1, "color", 5_000)).toBe(4);
      // The records older than 5 s were dropped on the way.
      expect(await store.deletedWithin(1, "color", 60_000)).toBe(4);
      expect(await store.deletedWithin(1, "size", 60_000)).toBe(7);
      expect(await store.deletedWithin(2, "color", 60_000)).toBe(0);
    });

    it("starts again once forgotten (an admin reviewed the deletions), and keeps the count through a replace", async () => {
      await store.recordDeleted(1, "color", 5);
      await store.forget(1, "color");
      expect(await store.deletedWithin(1, "color", 60_000)).toBe(5);
      await store.forgetDeleted(1, "color");
      expect(await store.deletedWithin(1, "color", 60_000)).toBe(0);
      await store.recordDeleted(1, "color", 0);
      expect(await store.deletedWithin(1, "color", 60_000)).toBe(0);
    });
  });

  describe("recently added names", () => {
    it("has none for a collection without records", async () => {
      expect(addedNames(await store.recentlyAdded(1, "color", 0))).toEqual(new Set());
    });

    it("keeps the labels each option was added with; a later addition replaces them", async () => {
      await store.recordAdded(1, "color", [{ name: "teal", label: { "en-US": "Teal" } }], 1_000);
      await store.recordAdded(
        1,
        "color",
        [
          { name: "teal", label: { "en-US": "Teal", "fr-FR": "Sarcelle" } },
          { name: "navy", label: {} },
        ],
        2_000,
      );
      expect(await store.recentlyAdded(1, "color", 0)).toEqual(
        new Map([
          ["teal", { "en-US": "Teal", "fr-FR": "Sarcelle" }],
          ["navy", {}],
        ]),
      );
    });

    it("returns names added at or after `sinceMs`, not before", async () => {
      await store.recordAdded(1, "color", added("old"), 1_000);
      await store.recordAdded(1, "color", added("edge", "new"), 2_000);
      expect(addedNames(await store.recentlyAdded(1, "color", 2_000))).toEqual(new Set(["edge", "new"]));
      expect(addedNames(await store.recentlyAdded(1, "color", 1_999))).toEqual(new Set(["edge", "new"]));
      expect(addedNames(await store.recentlyAdded(1, "color", 2_001))).toEqual(new Set());
    });

    it("a later addition of the same name moves its time forward", async () => {
      await store.recordAdded(1, "color", added("red"), 1_000);
      await store.recordAdded(1, "color", added("red"), 5_000);
      expect(addedNames(await store.recentlyAdded(1, "color", 4_000))).toEqual(new Set(["red"]));
    });

    it("recording no name is harmless", async () => {
      await store.recordAdded(1, "color", added(), 1_000);
      expect(addedNames(await store.recentlyAdded(1, "color", 0))).toEqual(new Set());
    });

    it("keeps records per project and collection, apart from the options state", async () => {
      await store.recordAdded(1, "color", added("red"), 1_000);
      await store.recordAdded(2, "color", added("blue"), 1_000);
      await store.recordAdded(1, "size", added("xl"), 1_000);
      expect(addedNames(await store.recentlyAdded(1, "color", 0))).toEqual(new Set(["red"]));
      expect(addedNames(await store.recentlyAdded(2, "color", 0))).toEqual(new Set(["blue"]));
      expect(addedNames(await store.recentlyAdded(1, "size", 0))).toEqual(new Set(["xl"]));
      // Recording an addition says nothing about what pim-sync last wrote.
      expect(await store.read(1, "color")).toBeNull();
      await store.replace(1, "color", [opt("green")]);
      expect(await store.read(1, "color")).toEqual(mapOf(opt("green")));
      expect(addedNames(await store.recentlyAdded(1, "color", 0))).toEqual(new Set(["red"]));
    });

    it("survives forget (the additions are still in the service)", async () => {
      await store.replace(1, "color", [opt("red")]);
      await store.recordAdded(1, "color", added("added"), 1_000);
      await store.forget(1, "color");
      expect(addedNames(await store.recentlyAdded(1, "color", 0))).toEqual(new Set(["added"]));
    });

    it("forgets additions older than `sinceMs` once asked with it (both stores prune alike)", async () => {
      await store.recordAdded(1, "color", added("old"), 1_000);
      await store.recordAdded(1, "color", added("new"), 3_000);
      await store.recordAdded(1, "size", added("old"), 1_000);
      expect(addedNames(await store.recentlyAdded(1, "color", 2_000))).toEqual(new Set(["new"]));
      // add-options reads every record (since 0): the expired one must not make it look present.
      expect(addedNames(await store.recentlyAdded(1, "color", 0))).toEqual(new Set(["new"]));
      expect(addedNames(await store.recentlyAdded(1, "size", 0))).toEqual(new Set(["old"]));
      expect(addedNames(await store.recentlyAdded(1, "size", 2_000))).toEqual(new Set());
      expect(addedNames(await store.recentlyAdded(1, "size", 0))).toEqual(new Set());
      // A name pruned can be recorded again.
      await store.recordAdded(1, "size", added("old"), 4_000);
      expect(addedNames(await store.recentlyAdded(1, "size", 0))).toEqual(new Set(["old"]));
    });

    it("handles special collection and option names", async () => {
      await store.recordAdded(3, "size:eu/b ü", added("constructor", "a:b", "名前", "with space"), 1_000);
      expect(addedNames(await store.recentlyAdded(3, "size:eu/b ü", 0))).toEqual(new Set(["constructor", "a:b", "名前", "with space"]));
    });
  });

  it("close resolves", async () => {
    await expect(store.close()).resolves.toBeUndefined();
  });
});

describe("redis state store: Redis specifics", () => {
  let test: TestRedis;

  it.beforeEach(({ redis }) => {
    test = redis;
  });

  it("keeps one hash per collection and a set of known collections under the prefix", async () => {
    const store = createRedisStateStore(test.redis, test.prefix);
    await store.replace(67, "color", [opt("red", { "en-US": "Red" })]);
    await store.replace(67, "empty", []);
    expect((await test.keys()).sort()).toEqual([`${test.prefix}:state:67:c:color`, `${test.prefix}:state:67:known`].sort());
    expect(await test.redis.hgetall(`${test.prefix}:state:67:c:color`)).toEqual({ red: JSON.stringify({ "en-US": "Red" }) });
    expect((await test.redis.smembers(`${test.prefix}:state:67:known`)).sort()).toEqual(["color", "empty"]);
  });

  it("forget removes the hash and the collection from the known set", async () => {
    const store = createRedisStateStore(test.redis, test.prefix);
    await store.replace(67, "color", [opt("red")]);
    await store.forget(67, "color");
    expect(await test.keys()).toEqual([]);
  });

  it("reads null when the collection is not known, even if a hash exists", async () => {
    const store = createRedisStateStore(test.redis, test.prefix);
    await test.redis.hset(`${test.prefix}:state:1:c:stray`, "red", "{}");
    expect(await store.read(1, "stray")).toBeNull();
  });

  it("fails to read a value that is not JSON, naming the key and the option", async () => {
    const store = createRedisStateStore(test.redis, test.prefix);
    await store.replace(1, "color", [opt("red")]);
    const key = `${test.prefix}:state:1:c:color`;
    await test.redis.hset(key, "blue", "{not json");
    await expect(store.read(1, "color")).rejects.toThrow(`corrupt state at ${key}#blue: not JSON`);
  });

  it("fails to read a JSON value that is not an object of strings", async () => {
    const store = createRedisStateStore(test.redis, test.prefix);
    await store.replace(1, "color", []);
    const key = `${test.prefix}:state:1:c:color`;
    await test.redis.hset(key, "arr", '["en-US"]');
    await expect(store.read(1, "color")).rejects.toThrow(`corrupt state at ${key}#arr: labels must map locale to text`);
  });

  it("keeps additions in a hash of their own and prunes the expired ones when asked", async () => {
    const store = createRedisStateStore(test.redis, test.prefix);
    await store.recordAdded(67, "color", added("old", "new"), 1_000);
    await store.recordAdded(67, "color", added("new"), 3_000);
    const key = `${test.prefix}:state:67:a:color`;
    expect(Object.keys(await test.redis.hgetall(key)).sort()).toEqual(["new", "old"]);
    expect(addedNames(await store.recentlyAdded(67, "color", 2_000))).toEqual(new Set(["new"]));
    expect(await test.redis.hgetall(key)).toEqual({ new: JSON.stringify({ at: 3000, label: {} }) });
  });

  it("reads additions recorded by the first versions (the time alone) as unlabelled", async () => {
    const store = createRedisStateStore(test.redis, test.prefix);
    await test.redis.hset(`${test.prefix}:state:67:a:color`, "teal", "5000");
    expect(await store.recentlyAdded(67, "color", 0)).toEqual(new Map([["teal", {}]]));
  });

  it("close leaves a shared connection open", async () => {
    const store = createRedisStateStore(test.redis, test.prefix);
    await store.close();
    expect(await test.redis.ping()).toBe("PONG");
  });

  it("close quits a connection it owns", async () => {
    const own = await createTestRedis();
    try {
      const store = createRedisStateStore(own.redis, own.prefix, { ownsConnection: true });
      await store.replace(1, "color", [opt("red")]);
      await store.forget(1, "color");
      await store.close();
      await expect(own.redis.ping()).rejects.toThrow("Connection is closed");
    } finally {
      await own.cleanup();
    }
  });

  it("the test helper's cleanup deletes every key under its prefix and nothing else", async () => {
    const other = await createTestRedis();
    try {
      const store = createRedisStateStore(other.redis, other.prefix);
      await store.replace(1, "color", bulk(1500));
      await store.replace(2, "size", [opt("xl")]);
      await test.redis.set(`${test.prefix}:untouched`, "1");
      expect(await other.keys()).toHaveLength(4);
      await other.cleanup();
      const remaining = await test.redis.scan("0", "MATCH", `${other.prefix}*`, "COUNT", 10_000);
      expect(remaining[1]).toEqual([]);
      expect(await test.redis.get(`${test.prefix}:untouched`)).toBe("1");
    } finally {
      await other.cleanup();
    }
  });

  it("update rejects when Redis fails a command inside the transaction", async () => {
    const store = createRedisStateStore(test.redis, test.prefix);
    await test.redis.set(`${test.prefix}:state:1:c:color`, "not a hash");
    const outcome = await store.update(1, "color", [opt("red")], ["blue"]).then(
      () => "resolved",
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toContain("WRONGTYPE");
  });
});

describe("file state store: file specifics", () => {
  let dir: string;

  it.beforeEach(({ tempDir }) => {
    dir = tempDir;
  });

  it("keeps one JSON file per collection under project-{id}, and no temporary file", async () => {
    const store = createFileStateStore(dir);
    await store.replace(67, "size:eu/b", [opt("xl", { "en-US": "XL" })]);
    await store.update(67, "size:eu/b", [opt("s")], []);
    expect(await readdir(dir)).toEqual(["project-67"]);
    expect(await readdir(join(dir, "project-67"))).toEqual([`${encodeURIComponent("size:eu/b")}.json`]);
    const text = await readFile(join(dir, "project-67", `${encodeURIComponent("size:eu/b")}.json`), "utf8");
    expect(JSON.parse(text)).toEqual({ xl: { "en-US": "XL" }, s: { "en-US": "s" } });
  });

  it("forget removes the file", async () => {
    const store = createFileStateStore(dir);
    await store.replace(1, "color", [opt("red")]);
    await store.forget(1, "color");
    expect(await readdir(join(dir, "project-1"))).toEqual([]);
  });

  it("reads null when the state folder does not exist yet", async () => {
    const store = createFileStateStore(join(dir, "not", "yet"));
    expect(await store.read(1, "color")).toBeNull();
  });

  it("creates the state folder on the first write", async () => {
    const store = createFileStateStore(join(dir, "nested", "state"));
    await store.replace(1, "color", [opt("red")]);
    expect(await store.read(1, "color")).toEqual(mapOf(opt("red")));
  });

  it("fails to read a file that is not JSON, naming the file", async () => {
    const store = createFileStateStore(dir);
    await store.replace(1, "color", [opt("red")]);
    const file = join(dir, "project-1", "color.json");
    await writeFile(file, '{"red": {"en-US": "Re');
    await expect(store.read(1, "color")).rejects.toThrow(`corrupt state file ${file}: not JSON`);
  });

  it.each([
    ["an array", "[]"],
    ["null", "null"],
    ["a string", '"text"'],
  ])("fails to read a file holding %s, naming the file", async (_case, content) => {
    const store = createFileStateStore(dir);
    await mkdir(join(dir, "project-1"), { recursive: true });
    const file = join(dir, "project-1", "color.json");
    await writeFile(file, content);
    await expect(store.read(1, "color")).rejects.toThrow(`corrupt state file ${file}: expected an object`);
  });

  it("does not overwrite a corrupt file on update (the error goes up)", async () => {
    const store = createFileStateStore(dir);
    await mkdir(join(dir, "project-1"), { recursive: true });
    const file = join(dir, "project-1", "color.json");
    await writeFile(file, "garbage");
    await expect(store.update(1, "color", [opt("red")], [])).rejects.toThrow(file);
    expect(await readFile(file, "utf8")).toBe("garbage");
  });

  it("a replace overwrites a corrupt file", async () => {
    const store = createFileStateStore(dir);
    await mkdir(join(dir, "project-1"), { recursive: true });
    await writeFile(join(dir, "project-1", "color.json"), "garbage");
    await store.replace(1, "color", [opt("red")]);
    expect(await store.read(1, "color")).toEqual(mapOf(opt("red")));
  });

  it("keeps recently added records in a folder of their own, apart from the state files", async () => {
    const store = createFileStateStore(dir);
    await store.replace(1, "color", [opt("red")]);
    await store.recordAdded(1, "color", added("blue"), 1_000);
    expect((await readdir(join(dir, "project-1"))).sort()).toEqual(["added", "color.json"]);
    expect(await readdir(join(dir, "project-1", "added"))).toEqual(["color.json"]);
  });

  it("additions recorded for 'color' do not touch the state of a collection named 'color.added'", async () => {
    const store = createFileStateStore(dir);
    await store.replace(1, "color.added", [opt("red", { "en-US": "Red" })]);
    await store.recordAdded(1, "color", added("blue"), 1_000);
    const outcome = await store.read(1, "color.added").then(
      (read) => read,
      (error: unknown) => error,
    );
    expect(outcome).toEqual(mapOf(opt("red", { "en-US": "Red" })));
    expect(addedNames(await store.recentlyAdded(1, "color", 0))).toEqual(new Set(["blue"]));
  });

  it("records an addition of an option named '__proto__'", async () => {
    const store = createFileStateStore(dir);
    await store.recordAdded(1, "color", added("__proto__", "red"), 1_000);
    expect(addedNames(await store.recentlyAdded(1, "color", 0))).toEqual(new Set(["__proto__", "red"]));
  });

  it("a corrupt additions file fails with an error naming the file", async () => {
    const store = createFileStateStore(dir);
    await mkdir(join(dir, "project-1", "added"), { recursive: true });
    const file = join(dir, "project-1", "added", "color.json");
    await writeFile(file, "{broken");
    await expect(store.recentlyAdded(1, "color", 0)).rejects.toThrow(file);
  });

  it("sees the state written by another store on the same folder", async () => {
    await createFileStateStore(dir).replace(1, "color", [opt("red")]);
    expect(await createFileStateStore(dir).read(1, "color")).toEqual(mapOf(opt("red")));
  });
});

describe("the Redis state store's guard window", () => {
  it("is told by Redis' clock: a worker whose clock is two days ahead counts the same deletions as one on time", async ({ redis }) => {
    const store = createRedisStateStore(redis.redis, redis.prefix);
    await store.recordDeleted(1, "color", 6);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 2 * 86_400_000);
      await store.recordDeleted(1, "color", 4);
      expect(await store.deletedWithin(1, "color", 3_600_000)).toBe(10);
    } finally {
      vi.useRealTimers();
    }
  });
});
