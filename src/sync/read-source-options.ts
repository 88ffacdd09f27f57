import type { OptionSource, ServiceOption } from "../domain/option-collection.js";
import type { PimCatalogStructure } from "../domain/pim-catalog.js";
import {
  optionsFromAttributeOptions,
  optionsFromCurrencies,
  optionsFromMeasurementFamily,
  optionsFromRecords,
  type ProjectScope,
} from "../derive/index.js";
import type { PimReader } from "./pim-reader.js";

/**
 * Reads every option of one source, completely, or throws: a partial list must never reach
 * the planner, since anything missing from it would be deleted.
 */
export async function readSourceOptions(args: {
  readonly source: OptionSource;
  readonly structure: PimCatalogStructure;
  readonly scope: ProjectScope;
  readonly pim: PimReader;
  readonly signal?: AbortSignal | undefined;
}): Promise<ServiceOption[]> {
  const { source, structure, scope, pim, signal } = args;
  const locales = new Set(scope.locales);
  switch (source.kind) {
    case "attribute-options":
      return convertPageByPage(pim.attributeOptionPages(source.attribute, signal), (page) => optionsFromAttributeOptions(page, locales));
    case "reference-entity-records":
      return convertPageByPage(pim.referenceEntityRecordPages(source.referenceEntity, signal), (page) => optionsFromRecords(page, locales));
    case "measurement-units": {
      const family = structure.measurementFamilies.find((candidate) => candidate.code === source.measurementFamily);
      if (family === undefined) throw new Error(`measurement family '${source.measurementFamily}' is not in the PIM`);
      return optionsFromMeasurementFamily(family, locales);
    }
    case "currencies":
      return optionsFromCurrencies(scope.currencies);
  }
}

/**
 * Converts each page as it arrives, so the PIM's wire objects of one page at a time are alive,
 * not the whole list twice. A code repeated across pages (case-insensitively, as the PIM
 * compares them) keeps its first occurrence, as within a page.
 */
async function convertPageByPage<T>(pages: AsyncIterable<T[]>, convert: (page: T[]) => ServiceOption[]): Promise<ServiceOption[]> {
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
