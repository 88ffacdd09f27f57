import type { OptionSource, ServiceOption } from "../../core/domain/option-collection.js";
import type { PimCatalogStructure } from "../../core/domain/pim-catalog.js";
import {
  optionsFromAttributeOptions,
  optionsFromCurrencies,
  optionsFromMeasurementFamily,
  optionsFromRecords,
  type ProjectScope,
} from "../../core/derive/index.js";
import type { PimReader } from "./pim-reader.js";
import type { SourceSize } from "./reading-order.js";

/** A source ready to be read: what is known of its length, and the read itself (call once). */
export interface OpenedSource {
  readonly size: SourceSize;
  read(): Promise<ServiceOption[]>;
}

/**
 * Opens one source: an attribute's first page is read (its `items_count` gives the size); other
 * sources cost nothing to open. `read()` then reads every option, completely, or throws: a
 * partial list must never reach the planner, since anything missing from it would be deleted.
 */
export async function openSourceOptions(args: {
  readonly source: OptionSource;
  readonly structure: PimCatalogStructure;
  readonly scope: ProjectScope;
  readonly pim: PimReader;
  readonly signal?: AbortSignal | undefined;
}): Promise<OpenedSource> {
  const { source, structure, scope, pim, signal } = args;
  const locales = new Set(scope.locales);
  switch (source.kind) {
    case "attribute-options": {
      const list = await pim.openAttributeOptions(source.attribute, signal);
      return {
        size: list.count === undefined ? { kind: "unknown" } : { kind: "counted", items: list.count },
        read: () => convertPageByPage(list.pages, (page) => optionsFromAttributeOptions(page, locales)),
      };
    }
    case "reference-entity-records":
      return {
        size: { kind: "unknown" },
        read: () =>
          convertPageByPage(pim.referenceEntityRecordPages(source.referenceEntity, signal), (page) => optionsFromRecords(page, locales)),
      };
    case "measurement-units":
      return {
        size: { kind: "no-read" },
        read: async () => {
          const family = structure.measurementFamilies.find((candidate) => candidate.code === source.measurementFamily);
          if (family === undefined) throw new Error(`measurement family '${source.measurementFamily}' is not in the PIM`);
          return optionsFromMeasurementFamily(family, locales);
        },
      };
    case "currencies":
      return { size: { kind: "no-read" }, read: async () => optionsFromCurrencies(scope.currencies) };
  }
}

/**
 * Converts each page as it arrives, so the PIM's wire objects of one page at a time are alive,
 * not the whole list twice. A code repeated across pages (case-insensitively, as the PIM
 * compares them) keeps its first occurrence, as within a page.
 */
async function convertPageByPage<T>(
  pages: AsyncIterable<readonly T[]>,
  convert: (page: readonly T[]) => ServiceOption[],
): Promise<ServiceOption[]> {
  const out: ServiceOption[] = [];
  const seen = new Set<string>();
  for await (const page of pages) {
    for (const option of convert(page)) {
      const key = option.name.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(option);
    }
  }
  return out;
}
