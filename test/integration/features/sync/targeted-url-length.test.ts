import { afterEach, describe, expect, it } from "vitest";
import type { SyncTargets } from "../../../../src/core/domain/sync-targets.js";
import { targetKey } from "../../../../src/features/events/event-target.js";
import { targetsLeftUnwritten } from "../../../../src/features/events/targets-left-unwritten.js";
import { PIM_MAX_URL_BYTES } from "../../../../src/upstreams/pim/pim-assumptions.js";
import type { SimCatalog } from "../../../../sim/catalog/catalog-file.js";
import { startSyncHarness, type SyncHarness } from "../../../support/sync-harness.js";

/** 100 attribute codes of 100 characters: one `code IN` search of them all is a URL of about 14 KB. */
const LONG_CODES = Array.from({ length: 100 }, (_, i) => `a${String(i).padStart(3, "0")}_${"x".repeat(95)}`);
const attributesOnly = (codes: readonly string[]): SyncTargets => ({ attributes: [...codes], referenceEntities: [], options: [] });

function addSelects(catalog: SimCatalog, codes: readonly string[]): void {
  const color = catalog.pim.attributes.find((attribute) => attribute.code === "color");
  if (!color) throw new Error("the sample catalogue has no color attribute");
  for (const code of codes) {
    catalog.pim.attributes.push({ ...structuredClone(color), code, labels: { en_US: code.slice(0, 10) } });
    catalog.pim.attribute_options[code] = [{ code: "one", sort_order: 1, labels: { en_US: "One" } }];
  }
}
const attributeSearches = (h: SyncHarness) =>
  h.pim.requests.filter(
    (request) => request.method === "GET" && request.path === "/api/rest/v1/attributes" && request.query["search"]?.includes('"code"'),
  );
const searchedCodes = (h: SyncHarness): string[] =>
  attributeSearches(h)
    .filter((request) => request.status === 200)
    .flatMap((request) => (JSON.parse(request.query["search"] ?? "{}") as { code: { value: string[] }[] }).code.flatMap((c) => c.value));

describe("a targeted sync's attribute search: split by the URL's bytes, a refused search settled", () => {
  let h: SyncHarness;
  afterEach(async () => {
    await h.close();
  });

  it("100 codes of 100 characters behind a proxy that refuses URLs over PIM_MAX_URL_BYTES: every code read, no 414", async () => {
    h = await startSyncHarness({ editCatalog: (catalog) => addSelects(catalog, LONG_CODES) });
    h.pim.setMaxUrlBytes(PIM_MAX_URL_BYTES);
    const report = await h.sync({ targets: attributesOnly(LONG_CODES) });
    expect(attributeSearches(h).filter((request) => request.status === 414)).toEqual([]);
    expect(attributeSearches(h).length).toBeGreaterThan(1);
    expect(searchedCodes(h).sort()).toEqual([...LONG_CODES].sort());
    expect(report.unwritten).toEqual([]);
  });

  it("behind a proxy with a lower bound: a 414 is split down to one code; a code refused alone is settled as refused, the others read", async () => {
    const tooLong = `b_${"y".repeat(400)}`;
    const codes = [...LONG_CODES.slice(0, 20), tooLong];
    h = await startSyncHarness({ editCatalog: (catalog) => addSelects(catalog, codes) });
    h.pim.setMaxUrlBytes(500);
    const report = await h.sync({ targets: attributesOnly(codes) });
    expect(attributeSearches(h).some((request) => request.status === 414)).toBe(true);
    expect(searchedCodes(h).sort()).toEqual([...LONG_CODES.slice(0, 20)].sort());
    expect(report.unwritten).toEqual([{ collection: tooLong, attribute: tooLong, permanent: true }]);
    expect(report.failures).toEqual([expect.stringContaining(`the PIM refused the read of attribute(s) ${tooLong}: `)]);
    // What a sync.events job does with it: the refused target is settled (given up), never left pending.
    const keys = codes.map((code) => targetKey({ kind: "attribute", code }));
    const sorted = targetsLeftUnwritten(keys, report.unwritten);
    expect(sorted.refused).toEqual([targetKey({ kind: "attribute", code: tooLong })]);
    expect(sorted.retry).toEqual([]);
  });
});
