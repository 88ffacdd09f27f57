import type { OptionSource, ServiceOption } from "../domain/option-collection.js";
import type { PimAttributeOption, PimCatalogStructure, PimRecord } from "../domain/pim-catalog.js";
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
    case "attribute-options": {
      const all: PimAttributeOption[] = [];
      for await (const page of pim.attributeOptionPages(source.attribute, signal)) all.push(...page);
      return optionsFromAttributeOptions(all, locales);
    }
    case "reference-entity-records": {
      const all: PimRecord[] = [];
      for await (const page of pim.referenceEntityRecordPages(source.referenceEntity, signal)) all.push(...page);
      return optionsFromRecords(all, locales);
    }
    case "measurement-units": {
      const family = structure.measurementFamilies.find((candidate) => candidate.code === source.measurementFamily);
      if (family === undefined) throw new Error(`measurement family '${source.measurementFamily}' is not in the PIM`);
      return optionsFromMeasurementFamily(family, locales);
    }
    case "currencies":
      return optionsFromCurrencies(scope.currencies);
  }
}
