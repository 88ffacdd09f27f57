import { describe, expect } from "vitest";
import type { PimClient } from "../../../../src/upstreams/pim/pim-client.js";
import type { SimCatalog } from "../../../../sim/catalog/catalog-file.js";
import type { PimReader } from "../../../../src/features/sync/pim-reader.js";
import { namesOf, startSyncHarness, type SyncHarness } from "../../../support/sync-harness.js";
import { test } from "../../../support/fixtures.js";

/** Gives `attribute` `count` options in all (codes `<attribute>_<n>`), keeping the catalogue's. */
function growAttribute(catalog: SimCatalog, attribute: string, count: number): void {
  const options = catalog.pim.attribute_options[attribute] ?? [];
  for (let i = options.length; i < count; i += 1) {
    options.push({ code: `${attribute}_${String(i).padStart(4, "0")}`, sort_order: 100 + i, labels: { en_US: `${attribute} ${i}` } });
  }
  catalog.pim.attribute_options[attribute] = options;
}

/** The attribute whose options list a request read, for pages after the first; else undefined. */
function laterOptionPageOf(request: { path: string; query: Readonly<Record<string, string>> }): string | undefined {
  const match = /\/attributes\/([^/]+)\/options$/.exec(request.path);
  return match && Number(request.query["page"] ?? "1") > 1 ? match[1] : undefined;
}

describe("sync: reading order", () => {
  let h: SyncHarness;

  test("reads the largest attribute's pages before a smaller one's that comes first in the catalogue", async ({ closeAfter }) => {
    // color comes before size_eu among the PIM's attributes.
    h = closeAfter(
      await startSyncHarness({
        editCatalog: (catalog) => {
          growAttribute(catalog, "color", 250);
          growAttribute(catalog, "size_eu", 450);
        },
      }),
    );

    // One reader: the one that takes the largest opened source.
    const report = await h.sync({ sourceConcurrency: 1 });

    expect(report.failures).toEqual([]);
    const laterPages = h.pim.requests.map(laterOptionPageOf).filter((attribute) => attribute !== undefined);
    expect(laterPages).toEqual([...Array<string>(4).fill("size_eu"), ...Array<string>(2).fill("color")]);
    expect(h.optionsOf("size_eu-en_US-ecommerce")).toHaveLength(450);
    expect(h.optionsOf("color")).toHaveLength(250);
  });

  test("fails a source whose list changed between its first page and the rest, and deletes nothing from it", async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness({ editCatalog: (catalog) => growAttribute(catalog, "color", 250) }));
    await h.sync();
    const before = namesOf(h.optionsOf("color"));
    const colors = h.pim.state.attribute_options["color"];
    if (colors === undefined) throw new Error("no color options");

    // The PIM loses an option after the first page (and its count of 250) was read.
    const removeAfterOpen = (pim: PimClient): PimReader => ({
      readStructure: (signal) => pim.readStructure(signal),
      openAttributeOptions: async (attribute, signal) => {
        const list = await pim.openAttributeOptions(attribute, signal);
        if (attribute === "color") colors.splice(120, 1);
        return list;
      },
      referenceEntityRecordPages: (entity, signal) => pim.referenceEntityRecordPages(entity, signal),
      getAttributeOption: (attribute, code, signal) => pim.getAttributeOption(attribute, code, signal),
      getRecord: (entity, code, signal) => pim.getRecord(entity, code, signal),
      get stats() {
        return pim.stats;
      },
    });
    h.service.clearRequests();

    const report = await h.sync({}, { wrapPim: removeAfterOpen });

    expect(report.failures.join("\n")).toMatch(
      /reading attribute-options:color failed, its 1 collection\(s\) were not touched: .*count of 250/,
    );
    expect(namesOf(h.optionsOf("color"))).toEqual(before);
    expect(h.service.requests.filter((request) => request.method === "PATCH" && request.path.endsWith("/5/update-options"))).toEqual([]);
  });
});
