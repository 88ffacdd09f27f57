import { describe, expect } from "vitest";
import type { PimClient } from "../../../../src/upstreams/pim/pim-client.js";
import type { PimReader } from "../../../../src/features/sync/pim-reader.js";
import { namesOf, startSyncHarness, type SyncHarness } from "../../../support/sync-harness.js";
import { test } from "../../../support/fixtures.js";

/**
 * A list can end early with no sign a client could see: a search_after list has no count, so a
 * server that drops its last page looks like a shorter list. Whatever the paging says, a sync
 * never deletes an option the PIM still serves.
 */
function withoutLastItems(pim: PimClient, count: number): PimReader {
  async function* truncated<T>(pages: AsyncIterable<readonly T[]>): AsyncGenerator<T[]> {
    const all: T[] = [];
    for await (const page of pages) all.push(...page);
    yield all.slice(0, Math.max(0, all.length - count));
  }
  return {
    readStructure: (signal) => pim.readStructure(signal),
    openAttributeOptions: async (attribute, signal) => {
      const list = await pim.openAttributeOptions(attribute, signal);
      return { count: list.count, pages: truncated(list.pages) };
    },
    referenceEntityRecordPages: (entity, signal) => truncated(pim.referenceEntityRecordPages(entity, signal)),
    getAttributeOption: (attribute, code, signal) => pim.getAttributeOption(attribute, code, signal),
    getRecord: (entity, code, signal) => pim.getRecord(entity, code, signal),
    get stats() {
      return pim.stats;
    },
  };
}

describe("sync: a list that ends early without a sign", () => {
  let h: SyncHarness;
  test.beforeEach(async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness());
  });

  test("deletes nothing the PIM still has, writes nothing to those collections, and reports the run as failed", async () => {
    await h.sync();
    const before = { brand: namesOf(h.optionsOf("brand")), color: namesOf(h.optionsOf("color")) };
    h.service.clearRequests();

    const report = await h.sync({}, { wrapPim: (pim) => withoutLastItems(pim, 1) });

    expect(namesOf(h.optionsOf("brand"))).toEqual(before.brand);
    expect(namesOf(h.optionsOf("color"))).toEqual(before.color);
    const failed = report.collections.filter((outcome) => outcome.error !== undefined).map((outcome) => outcome.collection);
    expect(failed).toEqual(expect.arrayContaining(["brand", "color"]));
    expect(report.failures.join("\n")).toMatch(/write to 'brand' failed: the PIM still has \w+, missing from the list read/);
    const writes = h.service.requests.filter((request) => request.method === "PATCH").map((request) => request.path);
    expect(writes).toEqual([]);
  });

  test("still deletes what the PIM really removed (each name confirmed gone)", async () => {
    await h.sync();
    const removed = h.pim.state.reference_entity_records["brands"]?.pop();
    expect(removed).toBeDefined();

    const report = await h.sync();

    expect(report.failures).toEqual([]);
    expect(namesOf(h.optionsOf("brand"))).not.toContain(removed?.code);
  });
});
