import { afterEach, describe, expect, it } from "vitest";
import type { SyncTargets } from "../../../../src/core/domain/sync-targets.js";
import { keyspaceOf } from "../../../../src/infra/redis/keyspace.js";
import { PROJECT, startSyncHarness, type SyncHarness } from "../../../support/sync-harness.js";

const colorOnly = (codes: string[]): SyncTargets => ({ attributes: [], referenceEntities: [], options: [{ attribute: "color", codes }] });
/** Makes the PIM's color list `count` options longer: three pages at 250, so that two options read alone cost less than the list. */
const lengthenColor = (h: SyncHarness, count: number): void => {
  for (let index = 0; index < count; index += 1)
    h.pim.state.attribute_options["color"]?.push({
      code: `filler_${index}`,
      sort_order: 1_000 + index,
      labels: { en_US: `Filler ${index}` },
    });
};
const colorReads = (h: SyncHarness): string[] =>
  h.pim.requests
    .filter((request) => request.method === "GET" && request.path.startsWith("/api/rest/v1/attributes/color/options"))
    .map((request) => request.path);

describe("a targeted sync of named options", () => {
  let h: SyncHarness;
  afterEach(async () => {
    await h.close();
  });

  it("reads each named option alone and writes only its difference", async () => {
    h = await startSyncHarness();
    lengthenColor(h, 250);
    await h.sync();
    h.pim.state.attribute_options["color"]?.push({ code: "teal", sort_order: 50, labels: { en_US: "Teal" } });
    h.pim.clearRequests();
    const report = await h.sync({ targets: colorOnly(["teal", "red"]) });
    expect(report.failures).toEqual([]);
    expect(colorReads(h).sort()).toEqual(["/api/rest/v1/attributes/color/options/red", "/api/rest/v1/attributes/color/options/teal"]);
    expect(report.collections).toMatchObject([{ collection: "color", action: "update", upserts: 1, deletes: 0 }]);
    expect(h.optionsOf("color").map((option) => option.name)).toContain("teal");
  });

  it("reads a one-page list whole rather than its named option alone: one request either way, and the list shows what events missed", async () => {
    h = await startSyncHarness();
    await h.sync();
    expect(h.optionsOf("color").length).toBeLessThanOrEqual(100);
    h.pim.state.attribute_options["color"]?.push(
      { code: "teal", sort_order: 50, labels: { en_US: "Teal" } },
      { code: "unannounced", sort_order: 51, labels: { en_US: "Unannounced" } },
    );
    h.pim.clearRequests();
    const report = await h.sync({ targets: colorOnly(["teal"]) });
    expect(report.failures).toEqual([]);
    expect(colorReads(h)).toEqual(["/api/rest/v1/attributes/color/options"]);
    expect(h.optionsOf("color").map((option) => option.name)).toEqual(expect.arrayContaining(["teal", "unannounced"]));
  });

  it("reads the whole list when a collection of the attribute has no last-written state", async () => {
    h = await startSyncHarness();
    await h.sync();
    await h.state.forget(PROJECT, "color");
    h.pim.clearRequests();
    const report = await h.sync({ targets: colorOnly(["red"]) });
    expect(colorReads(h)).toEqual(["/api/rest/v1/attributes/color/options"]);
    expect(report.collections).toMatchObject([{ collection: "color", action: "replace", reason: "no-state" }]);
  });

  it("reads only the named options' entries of the state: another option's entry is never read", async () => {
    h = await startSyncHarness();
    lengthenColor(h, 250);
    await h.sync();
    // A corrupt entry of an option nobody named: a whole read of the state would throw on it.
    const key = keyspaceOf(h.redis.redis, h.redis.prefix).projectKey(PROJECT, "state", "c", "color");
    await h.redis.redis.hset(key, "filler_7", "not json");
    h.pim.state.attribute_options["color"]?.push({ code: "teal", sort_order: 50, labels: { en_US: "Teal" } });
    const report = await h.sync({ targets: colorOnly(["teal"]) });
    expect(report.failures).toEqual([]);
    expect(report.collections).toMatchObject([{ collection: "color", action: "update", upserts: 1, deletes: 0 }]);
    expect(h.optionsOf("color").map((option) => option.name)).toContain("teal");
  });

  it("the deletion guard counts the whole state, not the entries read: 11 options gone of 1,200 are deleted", async () => {
    h = await startSyncHarness();
    lengthenColor(h, 1_200);
    await h.sync();
    const gone = Array.from({ length: 11 }, (_, index) => `filler_${index}`);
    const options = h.pim.state.attribute_options["color"] ?? [];
    h.pim.state.attribute_options["color"] = options.filter((option) => !gone.includes(option.code));
    h.pim.clearRequests();
    const report = await h.sync({ targets: colorOnly(gone) });
    expect(report.failures).toEqual([]);
    expect(colorReads(h)).toHaveLength(11);
    expect(report.collections).toMatchObject([{ collection: "color", action: "update", upserts: 0, deletes: 11, heldBack: null }]);
    expect(h.optionsOf("color").map((option) => option.name)).not.toContain("filler_3");
  });
});
