/**
 * Upsert of one reference-entity record, shared by the single and the list PATCH (reference §7).
 * Values merge per attribute and per (locale, channel) pair; `data: null` erases one value.
 */
import { z } from "zod";

import type { PimCatalogRecord, PimCatalogRecordValue } from "../catalog/pim-catalog-schema.js";

import type { ValidationError } from "./akeneo-errors.js";
import { localeStatus, sameCode } from "./pim-state.js";
import type { PimState } from "./pim-state.js";

export type RecordUpsertOutcome =
  | { readonly ok: true; readonly status: 201 | 204; readonly code: string }
  | { readonly ok: false; readonly status: 422; readonly message: string; readonly errors?: readonly ValidationError[] };

const ALLOWED_PROPERTIES = new Set(["code", "values"]);
const CODE_SYNTAX = /^[A-Za-z0-9_]{1,255}$/;

const valuesSchema = z.record(
  z.string(),
  z.array(z.strictObject({ locale: z.string().nullable(), channel: z.string().nullable(), data: z.json() })),
);

export function upsertRecord(
  state: PimState,
  entityCode: string,
  code: string,
  body: Readonly<Record<string, unknown>>,
): RecordUpsertOutcome {
  for (const property of Object.keys(body)) {
    // Quote style as in reference_entity_records_patch_response.json.
    if (!ALLOWED_PROPERTIES.has(property)) return { ok: false, status: 422, message: `Property '${property}' does not exist.` };
  }
  if ("code" in body && body["code"] !== code) {
    const given = String(body["code"]);
    return {
      ok: false,
      status: 422,
      message: `The code "${given}" provided in the request body must match the record code "${code}" provided in the url.`,
    };
  }
  const parsedValues = valuesSchema.safeParse(body["values"] ?? {});
  if (!parsedValues.success) {
    return {
      ok: false,
      status: 422,
      message: `Property "values" does not have the expected format: ${z.prettifyError(parsedValues.error)}`,
    };
  }

  const errors: ValidationError[] = [];
  if (!CODE_SYNTAX.test(code)) errors.push({ property: "code", message: "This field may only contain letters, numbers and underscores." });
  for (const [attribute, entries] of Object.entries(parsedValues.data)) {
    for (const entry of entries) {
      if (entry.locale !== null && localeStatus(state, entry.locale) !== "enabled") {
        errors.push({ property: `values.${attribute}`, message: `The locale "${entry.locale}" does not exist or is not activated.` });
      }
      if (entry.channel !== null && !state.channels.some((channel) => channel.code === entry.channel)) {
        errors.push({ property: `values.${attribute}`, message: `The channel "${entry.channel}" does not exist.` });
      }
    }
  }
  if (errors.length > 0) return { ok: false, status: 422, message: "Validation failed.", errors };

  const records = state.reference_entity_records[entityCode] ?? [];
  state.reference_entity_records[entityCode] = records;
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, "+00:00");
  const existing = records.find((record) => sameCode(record.code, code));
  if (existing !== undefined) {
    existing.values = mergeValues(existing.values, parsedValues.data);
    existing.updated = now;
    return { ok: true, status: 204, code: existing.code };
  }
  records.push({ code, values: mergeValues({}, parsedValues.data), created: now, updated: now });
  return { ok: true, status: 201, code };
}

function mergeValues(
  current: PimCatalogRecord["values"],
  patch: Readonly<Record<string, readonly PimCatalogRecordValue[]>>,
): PimCatalogRecord["values"] {
  const merged: PimCatalogRecord["values"] = { ...current };
  for (const [attribute, entries] of Object.entries(patch)) {
    let values = [...(merged[attribute] ?? [])];
    for (const entry of entries) {
      values = values.filter((value) => value.locale !== entry.locale || value.channel !== entry.channel);
      if (entry.data !== null) values.push(entry);
    }
    if (values.length > 0) merged[attribute] = values;
    else delete merged[attribute];
  }
  return merged;
}
