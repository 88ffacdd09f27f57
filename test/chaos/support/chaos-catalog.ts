/**
 * The sample catalogue made long enough for paging to matter: `color` has 250 options (pages of
 * 100, 100 and 50, page pagination) and the `brands` entity 50 records (pages of 20 with
 * CHAOS_RECORDS_PAGE_SIZE, search_after), so a fault on page 2 leaves a tail that a wrong read
 * would delete while staying under the 50 % deletion guard. Plus the PIM change made between the
 * baseline sync and the faulted one, so the faulted run has legitimate writes too.
 */
import type { SimCatalog } from "../../../sim/catalog/catalog-file.js";
import type { PimState } from "../../../sim/pim/pim-state.js";
import { encodeCursor } from "../../../sim/pim/search-after-pagination.js";

export const CHAOS_RECORDS_PAGE_SIZE = 20;
/** The service lists 5 collections a page, so the collection list has 3 pages. */
export const CHAOS_SERVICE_PAGE_SIZE = 5;

export const PAGED_ATTRIBUTE = "color";
export const PAGED_ENTITY = "brands";
/** The collections read from the paged sources. */
export const PAGED_COLLECTIONS = ["color", "brand"] as const;
/** Collections the PIM change between runs touches: the only ones a faulted run may write. */
export const CHANGED_COLLECTIONS: readonly string[] = [
  "season-ecommerce",
  "size_eu-en_US-ecommerce",
  "size_eu-en_US-mobile",
  "size_eu-fr_FR-ecommerce",
  "size_eu-fr_FR-mobile",
];

export function editChaosCatalog(catalog: SimCatalog): void {
  const colors = catalog.pim.attribute_options[PAGED_ATTRIBUTE] ?? [];
  for (let i = colors.length; i < 250; i += 1) {
    const code = `chaos_color_${String(i).padStart(3, "0")}`;
    colors.push({ code, sort_order: i, labels: { en_US: `Chaos color ${i}`, fr_FR: `Couleur ${i}` } });
  }
  catalog.pim.attribute_options[PAGED_ATTRIBUTE] = colors;
  const records = catalog.pim.reference_entity_records[PAGED_ENTITY] ?? [];
  for (let i = records.length; i < 50; i += 1) {
    records.push({
      code: `chaos_brand_${String(i).padStart(3, "0")}`,
      values: { label: [{ locale: "en_US", channel: null, data: `Chaos brand ${i}` }] },
      created: "2024-01-01T00:00:00+00:00",
      updated: "2024-01-01T00:00:00+00:00",
    });
  }
  catalog.pim.reference_entity_records[PAGED_ENTITY] = records;
}

/** One option more in `season`, one fewer in `size_eu`. */
export function changePim(state: PimState): void {
  (state.attribute_options["season"] ??= []).push({ code: "chaos_winter", sort_order: 99, labels: { en_US: "Chaos winter" } });
  state.attribute_options["size_eu"] = (state.attribute_options["size_eu"] ?? []).slice(0, -1);
}

/**
 * The search_after cursor of the records' last page (the last code of the second page, sorted
 * by code as the PIM serves them), so a fault can start there: a read that fails on it has read
 * 40 of 50 records, a tail small enough to pass the deletion guard if it were planned.
 */
export function lastRecordsPageCursor(catalog: SimCatalog): string {
  const codes = (catalog.pim.reference_entity_records[PAGED_ENTITY] ?? [])
    .map((record) => record.code)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const last = codes[2 * CHAOS_RECORDS_PAGE_SIZE - 1];
  if (last === undefined) throw new Error("the chaos catalogue has fewer records than three pages");
  return encodeCursor(last);
}
