import { describe, expect, it } from "vitest";
import { countMinimalRequests, pagedRequests, searchAfterRequests, writeRequests } from "../../../bench/floor/count-minimal-requests.js";
import { parseSimCatalog, type SimCatalog } from "../../../sim/catalog/catalog-file.js";

const options = (n: number): { code: string }[] => Array.from({ length: n }, (_, i) => ({ code: `o${i}` }));
const records = (n: number): { code: string }[] => Array.from({ length: n }, (_, i) => ({ code: `r${i}` }));
const attribute = (code: string, type: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  code,
  type,
  group: "g",
  localizable: false,
  scopable: false,
  ...extra,
});

/** A hand-made catalogue where every count below can be checked by eye. */
function tinyCatalog(): SimCatalog {
  return parseSimCatalog({
    pim: {
      locales: [
        { code: "en_US", enabled: true },
        { code: "fr_FR", enabled: true },
        { code: "de_DE", enabled: false },
      ],
      currencies: [
        { code: "EUR", enabled: true },
        { code: "USD", enabled: true },
      ],
      channels: [{ code: "ecommerce", locales: ["en_US", "fr_FR"], currencies: ["EUR", "USD"] }],
      attributes: [
        attribute("sku", "pim_catalog_identifier"),
        attribute("name", "pim_catalog_text", { localizable: true }),
        // 150 options: 2 pages; 1 collection of 150: 1 write.
        attribute("color", "pim_catalog_simpleselect"),
        // 12,000 options: 120 pages; 3 writes (5,000 per write).
        attribute("part", "pim_catalog_simpleselect"),
        // No options: 1 (empty) page; localizable: en_US and fr_FR, but the service only has en_US.
        attribute("material", "pim_catalog_multiselect", { localizable: true }),
        // Both use "brand" (200 records): read once, search_after 3 pages (100, 100, empty).
        attribute("brand_main", "akeneo_reference_entity", { reference_data_name: "brand" }),
        attribute("brand_other", "akeneo_reference_entity_collection", { reference_data_name: "brand" }),
        // Units and currencies come from the structure: no read, one write each.
        attribute("weight", "pim_catalog_metric", { metric_family: "Weight", default_metric_unit: "GRAM" }),
        attribute("price", "pim_catalog_price_collection"),
      ],
      attribute_options: { color: options(150), part: options(12_000), material: [] },
      families: [],
      measurement_families: [
        {
          code: "Weight",
          standard_unit_code: "GRAM",
          units: { GRAM: { code: "GRAM" }, KILOGRAM: { code: "KILOGRAM" }, TON: { code: "TON" } },
        },
      ],
      reference_entities: [{ code: "brand" }],
      reference_entity_records: { brand: records(200) },
    },
    service: {
      projects: [67, 68],
      collections: [
        { id: 1, name: "color", project: 67 },
        { id: 2, name: "part", project: 67 },
        { id: 3, name: "material-en_US", project: 67 },
        { id: 4, name: "brand_main", project: 67 },
        { id: 5, name: "brand_other", project: 67 },
        { id: 6, name: "weight-unit", project: 67 },
        { id: 7, name: "price-currency", project: 67 },
        // Another project's collection: not listed for 67, never read or written.
        { id: 8, name: "color", project: 68 },
      ],
    },
  });
}

describe("paging rules", () => {
  it("page pagination: ceil(n/size), and an empty list is one page", () => {
    expect([0, 1, 100, 101, 250].map((n) => pagedRequests(n, 100))).toEqual([1, 1, 1, 2, 3]);
  });

  it("search_after: one more (empty) page when the list ends on a page boundary", () => {
    expect([0, 1, 99, 100, 150, 200].map((n) => searchAfterRequests(n, 100))).toEqual([1, 1, 1, 2, 2, 3]);
  });

  it("writes: 5,000 options per write, and a replace of nothing is still one write", () => {
    expect([0, 1, 5_000, 5_001, 12_000].map((n) => writeRequests(n, 5_000))).toEqual([1, 1, 1, 2, 3]);
  });
});

describe("countMinimalRequests", () => {
  it("counts a first sync of the hand-made catalogue", () => {
    expect(countMinimalRequests(tinyCatalog(), { project: 67, withWrites: true })).toEqual({
      pim: {
        token: 1,
        // attributes (7 of a read type: 1 page), channels, locales, currencies, families, measurement families
        structure: 6,
        // color 2 + part 120 + material 1
        options: 123,
        // brand once: 3
        records: 3,
        total: 133,
      },
      service: {
        list: 1,
        // color 1, part 3, material-en_US 1, brand_main 1, brand_other 1, weight-unit 1, price-currency 1
        writes: 9,
        total: 10,
      },
    });
  });

  it("counts the same reads and no write for a no-change re-sync", () => {
    const counted = countMinimalRequests(tinyCatalog(), { project: 67, withWrites: false });
    expect(counted.pim.total).toBe(133);
    expect(counted.service).toEqual({ list: 1, writes: 0, total: 1 });
  });

  it("follows the simulator's records page size", () => {
    const counted = countMinimalRequests(tinyCatalog(), { project: 67, withWrites: false, recordsPageSize: 50 });
    // 200 records in pages of 50: 4 full pages and an empty one.
    expect(counted.pim.records).toBe(5);
  });

  it("neither reads nor writes collections the service does not have", () => {
    const catalog = tinyCatalog();
    const withoutPart = {
      ...catalog,
      service: { ...catalog.service, collections: catalog.service.collections.filter((c) => c.name !== "part") },
    };
    const counted = countMinimalRequests(withoutPart, { project: 67, withWrites: true });
    expect(counted.pim.options).toBe(3);
    expect(counted.service.writes).toBe(6);
  });
});
