import { describe, expect, it } from "vitest";
import { createCatalogCache } from "../../../../src/features/add-options/catalog-cache.js";
import type { PimCatalogStructure } from "../../../../src/core/domain/pim-catalog.js";

const emptyStructure: PimCatalogStructure = {
  attributes: [],
  channels: [],
  locales: [],
  currencies: [],
  families: [],
  measurementFamilies: [],
};

function setup(ttlMs: number) {
  let clock = 0;
  const calls = { structure: 0, collections: [] as number[] };
  const cache = createCatalogCache({
    ttlMs,
    now: () => clock,
    readStructure: async () => {
      calls.structure += 1;
      return emptyStructure;
    },
    listCollections: async (project) => {
      calls.collections.push(project);
      return [{ id: calls.collections.length, name: "color", project }];
    },
  });
  return { cache, calls, advance: (ms: number) => (clock += ms) };
}

describe("createCatalogCache", () => {
  it("reuses reads within the time to live, and reads again after it", async () => {
    const { cache, calls, advance } = setup(1000);
    await cache.structure({ fresh: false });
    advance(999);
    await cache.structure({ fresh: false });
    expect(calls.structure).toBe(1);
    advance(1);
    await cache.structure({ fresh: false });
    expect(calls.structure).toBe(2);
  });

  it("always reads when asked for fresh data, and keeps that read", async () => {
    const { cache, calls } = setup(1000);
    await cache.collections(67, { fresh: false });
    const fresh = await cache.collections(67, { fresh: true });
    const reused = await cache.collections(67, { fresh: false });
    expect(calls.collections).toEqual([67, 67]);
    expect(reused).toBe(fresh);
  });

  it("keeps each project's list apart", async () => {
    const { cache, calls } = setup(1000);
    await cache.collections(67, { fresh: false });
    await cache.collections(99, { fresh: false });
    await cache.collections(67, { fresh: false });
    expect(calls.collections).toEqual([67, 99]);
  });

  it("never caches with a time to live of 0", async () => {
    const { cache, calls } = setup(0);
    await cache.structure({ fresh: false });
    await cache.structure({ fresh: false });
    expect(calls.structure).toBe(2);
  });

  it("shares one read among concurrent callers, fresh ones included", async () => {
    let release: (value: PimCatalogStructure) => void = () => undefined;
    let reads = 0;
    const cache = createCatalogCache({
      ttlMs: 1000,
      readStructure: () => {
        reads += 1;
        return new Promise((resolve) => (release = resolve));
      },
      listCollections: async () => [],
    });
    const waiting = [cache.structure({ fresh: false }), cache.structure({ fresh: true }), cache.structure({ fresh: false, maxAgeMs: 0 })];
    release(emptyStructure);
    expect(await Promise.all(waiting)).toEqual([emptyStructure, emptyStructure, emptyStructure]);
    expect(reads).toBe(1);
  });

  it("a failed shared read fails its callers and is not cached", async () => {
    let reads = 0;
    const cache = createCatalogCache({
      ttlMs: 1000,
      readStructure: async () => {
        reads += 1;
        if (reads === 1) throw new Error("PIM down");
        return emptyStructure;
      },
      listCollections: async () => [],
    });
    await expect(Promise.all([cache.structure({ fresh: false }), cache.structure({ fresh: false })])).rejects.toThrow("PIM down");
    expect(await cache.structure({ fresh: false })).toBe(emptyStructure);
    expect(reads).toBe(2);
  });

  it("maxAgeMs: a cached value older than it is read again, a younger one reused; never longer than the time to live", async () => {
    const { cache, calls, advance } = setup(1000);
    await cache.structure({ fresh: false });
    advance(299);
    await cache.structure({ fresh: false, maxAgeMs: 300 });
    expect(calls.structure).toBe(1);
    advance(1);
    await cache.structure({ fresh: false, maxAgeMs: 300 });
    expect(calls.structure).toBe(2);
    advance(1000);
    await cache.structure({ fresh: false, maxAgeMs: 5000 });
    expect(calls.structure).toBe(3);
  });

  it("a caller that gives up stops waiting; the others still get the shared read", async () => {
    let release: (value: PimCatalogStructure) => void = () => undefined;
    const cache = createCatalogCache({
      ttlMs: 1000,
      readStructure: () => new Promise((resolve) => (release = resolve)),
      listCollections: async () => [],
    });
    const controller = new AbortController();
    const giving = cache.structure({ fresh: false, signal: controller.signal });
    const staying = cache.structure({ fresh: false });
    controller.abort(new Error("job timed out"));
    await expect(giving).rejects.toThrow("job timed out");
    release(emptyStructure);
    expect(await staying).toBe(emptyStructure);
  });
});
