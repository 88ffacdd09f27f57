import type { PimLabels } from "../../core/domain/pim-catalog.js";
import type { WireRecordValue } from "./pim-schemas.js";

/**
 * Records have no top-level `labels` (removed in 2019): a record's label is the value of the
 * entity's attribute-as-label, `label` by default. The API does not say which attribute that is,
 * so pim-sync relies on the default code.
 */
export const RECORD_LABEL_ATTRIBUTE = "label";

/**
 * The values of the label attribute as locale → text. Only channel-less values count (the label
 * attribute is not per channel by default); a value without a locale has no key to go under, and
 * non-text data cannot be a label, so both are skipped.
 */
export function labelsFromRecordValues(values: Readonly<Record<string, readonly WireRecordValue[]>>): PimLabels {
  const labels: Record<string, string | null> = {};
  for (const value of values[RECORD_LABEL_ATTRIBUTE] ?? []) {
    if (value.channel != null || value.locale == null) continue;
    if (typeof value.data === "string") labels[value.locale] = value.data;
  }
  return labels;
}

export interface RecordLabelWrite {
  readonly code: string;
  readonly values: { readonly [RECORD_LABEL_ATTRIBUTE]: readonly { locale: string; channel: null; data: string }[] };
}

/**
 * The body of one record upsert that touches only the label: record values merge per attribute
 * and per (locale, channel), so other attributes and other locales are left as they are.
 */
export function toRecordLabelWrite(item: { readonly code: string; readonly labels: Readonly<Record<string, string>> }): RecordLabelWrite {
  const label = Object.entries(item.labels).map(([locale, data]) => ({ locale, channel: null, data }));
  return { code: item.code, values: { [RECORD_LABEL_ATTRIBUTE]: label } };
}
