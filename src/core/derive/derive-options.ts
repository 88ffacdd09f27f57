import type { ServiceOption } from "../domain/option-collection.js";
import type { PimAttributeOption, PimLabels, PimMeasurementFamily, PimRecord } from "../domain/pim-catalog.js";
import { firstByCode } from "./first-by-code.js";
import { toServiceLabels } from "./labels.js";

/**
 * Options are named by their PIM code so that an option keeps its identity across label edits.
 * Codes that differ only in case are one code to the PIM; the first occurrence wins.
 */

export function optionsFromAttributeOptions(options: readonly PimAttributeOption[], projectLocales: ReadonlySet<string>): ServiceOption[] {
  return labelledOptions(options, projectLocales);
}

export function optionsFromRecords(records: readonly PimRecord[], projectLocales: ReadonlySet<string>): ServiceOption[] {
  return labelledOptions(records, projectLocales);
}

export function optionsFromMeasurementFamily(family: PimMeasurementFamily, projectLocales: ReadonlySet<string>): ServiceOption[] {
  return labelledOptions(family.units, projectLocales);
}

/** The PIM's currency label (`"EUR (Euro)"`) is one untranslated string, so no labels are sent. */
export function optionsFromCurrencies(codes: readonly string[]): ServiceOption[] {
  return firstByCode(codes, (code) => code).map((code) => ({ name: code, label: {} }));
}

function labelledOptions(
  items: readonly { readonly code: string; readonly labels: PimLabels }[],
  projectLocales: ReadonlySet<string>,
): ServiceOption[] {
  return firstByCode(items, (item) => item.code).map((item) => ({
    name: item.code,
    label: toServiceLabels(item.labels, projectLocales),
  }));
}
