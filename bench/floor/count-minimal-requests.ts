/**
 * The fewest requests a sync of a catalogue can make, counted from the catalogue itself with the
 * simulators' paging rules. This is the numerator of the floor and the denominator of the
 * requests ratio, so each rule below mirrors exactly what the simulators serve.
 */
import { optionSourceKey, type OptionSource } from "../../src/core/domain/option-collection.js";
import { ATTRIBUTE_TYPES_TO_READ } from "../../src/core/domain/pim-catalog.js";
import type { SimCatalog } from "../../sim/catalog/catalog-file.js";
import { deriveCatalog } from "../catalog/derive-service-collections.js";

export interface MinimalRequests {
  readonly pim: {
    /** The password grant: one per sync process. */
    readonly token: number;
    /** Attributes (type-filtered), channels, locales, currencies, families, measurement families. */
    readonly structure: number;
    readonly options: number;
    readonly records: number;
    readonly total: number;
  };
  readonly service: {
    readonly list: number;
    readonly writes: number;
    readonly total: number;
  };
}

export interface CountOptions {
  readonly project: number;
  /** false for a no-change re-sync: the same reads, no write. */
  readonly withWrites: boolean;
  /** Page-paginated PIM lists and the service's collection list: pim-sync asks for 100. */
  readonly pageSize?: number;
  /** The PIM simulator's search_after page size (its `recordsPageSize`, 100 by default). */
  readonly recordsPageSize?: number;
  /** pim-sync's `maxOptionsPerWrite` (see splitPlanWrites). */
  readonly maxOptionsPerWrite?: number;
}

/** Page pagination: `next` only while items remain, and an empty list still costs one page. */
export function pagedRequests(items: number, pageSize: number): number {
  return Math.max(1, Math.ceil(items / pageSize));
}

/**
 * search_after: `next` whenever a page is full, so a list ending on a page boundary (or empty)
 * costs one more request for an empty page: ceil(n/size) + 1 when n % size == 0.
 */
export function searchAfterRequests(items: number, pageSize: number): number {
  return Math.floor(items / pageSize) + 1;
}

/** splitPlanWrites: at most `max` options per write, and a replace of nothing is still one write. */
export function writeRequests(options: number, maxOptionsPerWrite: number): number {
  return Math.max(1, Math.ceil(options / maxOptionsPerWrite));
}

export function countMinimalRequests(catalog: SimCatalog, options: CountOptions): MinimalRequests {
  const pageSize = options.pageSize ?? 100;
  const recordsPageSize = options.recordsPageSize ?? 100;
  const maxOptionsPerWrite = options.maxOptionsPerWrite ?? 5000;
  const { pim } = catalog;
  const { scope, specs } = deriveCatalog(pim);

  const readTypes = new Set(ATTRIBUTE_TYPES_TO_READ);
  const structure =
    pagedRequests(pim.attributes.filter((attribute) => readTypes.has(attribute.type)).length, pageSize) +
    pagedRequests(pim.channels.length, pageSize) +
    pagedRequests(pim.locales.length, pageSize) +
    pagedRequests(pim.currencies.length, pageSize) +
    pagedRequests(pim.families.length, pageSize) +
    1; // measurement families: one plain array, not paginated

  // Only collections the service has are read and written; a name listed twice is left alone.
  const projectCollections = catalog.service.collections.filter((collection) => collection.project === options.project);
  const nameCounts = new Map<string, number>();
  for (const collection of projectCollections) nameCounts.set(collection.name, (nameCounts.get(collection.name) ?? 0) + 1);
  const synced = specs.filter((spec) => nameCounts.get(spec.name) === 1);

  const optionCount = (source: OptionSource): number => {
    switch (source.kind) {
      case "attribute-options":
        return uniqueCodes(pim.attribute_options[source.attribute] ?? []);
      case "reference-entity-records":
        return uniqueCodes(pim.reference_entity_records[source.referenceEntity] ?? []);
      case "measurement-units":
        return Object.keys(pim.measurement_families.find((family) => family.code === source.measurementFamily)?.units ?? {}).length;
      case "currencies":
        return scope.currencies.length;
    }
  };

  let optionPages = 0;
  let recordPages = 0;
  const seen = new Set<string>();
  for (const spec of synced) {
    const key = optionSourceKey(spec.source);
    if (seen.has(key)) continue;
    seen.add(key);
    if (spec.source.kind === "attribute-options")
      optionPages += pagedRequests((pim.attribute_options[spec.source.attribute] ?? []).length, pageSize);
    if (spec.source.kind === "reference-entity-records") {
      recordPages += searchAfterRequests((pim.reference_entity_records[spec.source.referenceEntity] ?? []).length, recordsPageSize);
    }
  }

  const writes = options.withWrites
    ? synced.reduce((sum, spec) => sum + writeRequests(optionCount(spec.source), maxOptionsPerWrite), 0)
    : 0;
  const list = pagedRequests(projectCollections.length, pageSize);
  const token = 1;
  return {
    pim: { token, structure, options: optionPages, records: recordPages, total: token + structure + optionPages + recordPages },
    service: { list, writes, total: list + writes },
  };
}

/** The PIM treats codes case-insensitively, and so does the derivation: `Red` and `red` are one option. */
function uniqueCodes(items: readonly { readonly code: string }[]): number {
  return new Set(items.map((item) => item.code.toLowerCase())).size;
}
