import { describe, expect } from "vitest";
import { ProjectScopeError } from "../../../../src/features/sync/sync-project.js";
import { startSyncHarness, type SyncHarness } from "../../../support/sync-harness.js";
import { test } from "../../../support/fixtures.js";

describe("project filters and paging", () => {
  let h: SyncHarness;

  test("narrows collections and labels to the channel and locale filters", async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness());

    const report = await h.sync({ filters: { channels: ["mobile"], locales: ["en_US"] } });

    expect(report.collections.map((c) => c.collection)).toEqual([
      "brand",
      "color",
      "designers",
      "material-en_US",
      "price-currency",
      "size_eu-en_US-mobile",
      "weight-unit",
    ]);
    expect(report.missing.map((m) => m.collection)).toEqual(["season-mobile"]);
    for (const option of h.optionsOf("color")) expect(Object.keys(option.label)).toEqual(["en-US"]);
    // The mobile channel has EUR only.
    expect(h.optionsOf("price-currency").map((o) => o.name)).toEqual(["EUR"]);
  });

  test("refuses filters that name what the PIM does not have, before any write", async ({ closeAfter }) => {
    h = closeAfter(await startSyncHarness());

    const attempt = h.sync({ filters: { channels: ["print"], locales: ["es_ES"] } });

    await expect(attempt).rejects.toBeInstanceOf(ProjectScopeError);
    await expect(attempt).rejects.toThrow(/print/);
    await expect(attempt).rejects.toThrow(/es_ES/);
    expect(h.service.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  test("follows every page: attributes, options, records and the service's collection list", async ({ closeAfter }) => {
    h = closeAfter(
      await startSyncHarness({
        editCatalog: (catalog) => {
          const options = catalog.pim.attribute_options["color"] ?? [];
          for (let i = 0; i < 245; i += 1)
            options.push({ code: `shade_${String(i).padStart(3, "0")}`, sort_order: 10 + i, labels: { en_US: `Shade ${i}` } });
          catalog.pim.attribute_options["color"] = options;
          const color = catalog.pim.attributes.find((a) => a.code === "color");
          if (!color) throw new Error("no color attribute");
          for (let i = 0; i < 105; i += 1) catalog.pim.attributes.push({ ...color, code: `extra_select_${String(i).padStart(3, "0")}` });
        },
        pim: { recordsPageSize: 2 },
        service: { pageSizeMax: 4 },
      }),
    );

    const report = await h.sync();

    expect(h.optionsOf("color")).toHaveLength(250);
    expect(h.optionsOf("brand")).toHaveLength(6);
    // 105 extra selects have no collection in the service: reported, not created.
    expect(report.missing).toHaveLength(106);
    const paths = h.pim.requests.map((r) => r.path);
    expect(paths.filter((p) => p === "/api/rest/v1/attributes/color/options")).toHaveLength(3);
    expect(paths.filter((p) => p === "/api/rest/v1/attributes")).toHaveLength(2);
    expect(paths.filter((p) => p === "/api/rest/v1/reference-entities/brands/records").length).toBeGreaterThanOrEqual(3);
    const listPages = h.service.requests.filter((r) => r.method === "GET" && r.path.includes("options_collections"));
    expect(listPages.length).toBeGreaterThanOrEqual(4);
  });
});
