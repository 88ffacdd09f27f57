import { describe, expect, it } from "vitest";
import { createCatalogCache } from "../../../src/add-options/catalog-cache.js";
import type { PimCatalogStructure } from "../../../src/domain/pim-catalog.js";

const emptyStructure: PimCatalogStructure = { attributes: [], channels: [], locales: [], currencies: [], families: [], measurementFamilies: [] };

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
});
