/**
 * What add-options does on the PIM side when the service simulator is linked to a PIM simulator:
 * the options land in the PIM too, as the connector's "add options through the PIM" path promises.
 * The collection's attribute is its name up to the first `-` (PIM codes cannot contain one).
 * Everything is checked before anything is written, so a refused request changes nothing.
 */
import type { PimState } from "../pim/pim-state.js";
import { localeStatus, optionsOf, sameCode, supportsOptions } from "../pim/pim-state.js";

import type { OptionPayload } from "./options-payload.js";

export type PimOptionWrite = { readonly ok: true; apply(): void } | { readonly ok: false; readonly message: string };

const PIM_CODE = /^[A-Za-z0-9_]+$/;
const REFERENCE_ENTITY_TYPES = new Set(["akeneo_reference_entity", "akeneo_reference_entity_collection"]);

export function planPimOptionWrite(pim: PimState, collectionName: string, options: readonly OptionPayload[]): PimOptionWrite {
  const attributeCode = collectionName.split("-", 1)[0] ?? collectionName;
  const attribute = pim.attributes.find((candidate) => candidate.code === attributeCode);
  if (attribute === undefined) {
    return { ok: false, message: `Collection "${collectionName}" has no PIM attribute "${attributeCode}" to add options to.` };
  }
  if (attribute.type === "pim_catalog_metric") {
    return {
      ok: false,
      message: `Collection "${collectionName}" lists the units of measurement family "${attribute.metric_family ?? ""}"; units cannot be added as options.`,
    };
  }
  if (attribute.type === "pim_catalog_price_collection") {
    return { ok: false, message: `Collection "${collectionName}" lists the PIM's currencies; currencies cannot be added as options.` };
  }
  const isReferenceEntity = REFERENCE_ENTITY_TYPES.has(attribute.type);
  if (!supportsOptions(attribute) && !isReferenceEntity) {
    return { ok: false, message: `PIM attribute "${attributeCode}" (${attribute.type}) does not support options.` };
  }

  const converted: { code: string; labels: Record<string, string> }[] = [];
  for (const option of options) {
    if (!PIM_CODE.test(option.name)) {
      return { ok: false, message: `Option "${option.name}" is not a valid PIM code: only letters, numbers and underscores are allowed.` };
    }
    const labels: Record<string, string> = {};
    for (const [serviceLocale, text] of Object.entries(option.label)) {
      const locale = serviceLocale.replaceAll("-", "_");
      if (localeStatus(pim, locale) !== "enabled") {
        return { ok: false, message: `Option "${option.name}": locale "${locale}" is not activated in the PIM.` };
      }
      labels[locale] = text;
    }
    converted.push({ code: option.name, labels });
  }

  if (isReferenceEntity) {
    const entity = attribute.reference_data_name ?? "";
    if (!pim.reference_entities.some((candidate) => candidate.code === entity)) {
      return { ok: false, message: `PIM reference entity "${entity}" of attribute "${attributeCode}" does not exist.` };
    }
    return {
      ok: true,
      apply() {
        const records = pim.reference_entity_records[entity] ?? [];
        pim.reference_entity_records[entity] = records;
        const now = new Date().toISOString().replace(/\.\d{3}Z$/, "+00:00");
        for (const { code, labels } of converted) {
          if (records.some((record) => sameCode(record.code, code))) continue;
          const label = Object.entries(labels).map(([locale, data]) => ({ locale, channel: null, data }));
          records.push({ code, values: label.length > 0 ? { label } : {}, created: now, updated: now });
        }
      },
    };
  }
  return {
    ok: true,
    apply() {
      const existing = optionsOf(pim, attribute.code);
      for (const { code, labels } of converted) {
        // An option the PIM already has is left as it is: add-options never edits.
        if (existing.some((option) => sameCode(option.code, code))) continue;
        const sortOrder = existing.reduce((max, option) => Math.max(max, option.sort_order), 0) + 1;
        existing.push({ code, sort_order: sortOrder, labels });
      }
    },
  };
}
