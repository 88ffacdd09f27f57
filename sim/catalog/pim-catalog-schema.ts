/**
 * The PIM half of the simulator catalogue, written from the Akeneo API reference (not from the
 * client's schemas: a simulator that shares the client's schema shares its bugs).
 *
 * Items are stored in the wire shape the PIM serves, minus `_links`, so the simulator can send them
 * as they are. Only what makes an item meaningful is required; the rest is defaulted the way
 * Akeneo fills it. Every object is strict so that a typo in a catalogue fails loudly with its path.
 */
import { z } from "zod";

import { checkPimCrossReferences } from "./pim-cross-references.js";

/** Codes of attributes, options, channels…: `[A-Za-z0-9_]` only (reference §0 "Code syntax"). */
export const pimCodeSchema = z.string().regex(/^[A-Za-z0-9_]+$/, { error: "must contain only letters, numbers and underscores" });

const textLabels = z.record(z.string(), z.string());
/** Option labels may hold null or "" ("no label"): the PIM sends both, so the catalogue can too. */
const optionLabels = z.record(z.string(), z.string().nullable());
const nullableText = z.string().nullable().default(null);
const nullableBoolean = z.boolean().nullable().default(null);

const localeSchema = z.strictObject({ code: z.string().min(1), enabled: z.boolean() });

const currencySchema = z
  .strictObject({ code: z.string().min(1), enabled: z.boolean(), label: z.string().optional() })
  .transform((currency) => ({ ...currency, label: currency.label ?? currency.code }));

const channelSchema = z.strictObject({
  code: pimCodeSchema,
  locales: z.array(z.string()).min(1),
  currencies: z.array(z.string()).min(1),
  category_tree: z.string().default("master"),
  // SaaS puts objects in here too (reference §6), so values are any JSON.
  conversion_units: z.record(z.string(), z.json()).default({}),
  labels: textLabels.default({}),
});

const attributeSchema = z.strictObject({
  code: pimCodeSchema,
  type: z.string().min(1),
  group: z.string().min(1),
  group_labels: textLabels.default({}),
  localizable: z.boolean(),
  scopable: z.boolean(),
  labels: textLabels.default({}),
  unique: z.boolean().default(false),
  useable_as_grid_filter: z.boolean().default(false),
  allowed_extensions: z.array(z.string()).default([]),
  metric_family: nullableText,
  default_metric_unit: nullableText,
  reference_data_name: nullableText,
  available_locales: z.array(z.string()).default([]),
  max_characters: z.number().int().nullable().default(null),
  validation_rule: nullableText,
  validation_regexp: nullableText,
  wysiwyg_enabled: nullableBoolean,
  number_min: nullableText,
  number_max: nullableText,
  decimals_allowed: nullableBoolean,
  negative_allowed: nullableBoolean,
  date_min: nullableText,
  date_max: nullableText,
  max_file_size: nullableText,
  minimum_input_length: z.number().int().nullable().default(null),
  sort_order: z.number().int().min(0).default(0),
  default_value: nullableBoolean,
  is_mandatory: z.boolean().default(false),
  decimal_places_strategy: z.enum(["round", "forbid", "trim"]).nullable().default(null),
  decimal_places: z.number().nullable().default(null),
  // Seen in examples but not in the schema (reference §4): served only when the catalogue sets them.
  guidelines: textLabels.optional(),
  auto_option_sorting: z.boolean().nullable().optional(),
  is_read_only: z.boolean().nullable().optional(),
  is_main_identifier: z.boolean().optional(),
  table_configuration: z.array(z.json()).optional(),
});

const attributeOptionSchema = z.strictObject({
  code: pimCodeSchema,
  sort_order: z.number().int().min(0).default(0),
  labels: optionLabels.default({}),
});

const familySchema = z.strictObject({
  code: pimCodeSchema,
  attributes: z.array(z.string()).default([]),
  attribute_as_label: z.string(),
  attribute_as_image: nullableText,
  attribute_requirements: z.record(z.string(), z.array(z.string())).default({}),
  labels: textLabels.default({}),
});

const measurementUnitSchema = z.strictObject({
  code: z.string().min(1),
  labels: textLabels.default({}),
  convert_from_standard: z
    .array(z.strictObject({ operator: z.enum(["mul", "div", "add", "sub"]), value: z.string() }))
    .min(1)
    .max(5)
    .default([{ operator: "mul", value: "1" }]),
  symbol: z.string().default(""),
});

const measurementFamilySchema = z.strictObject({
  code: z.string().min(1),
  labels: textLabels.default({}),
  standard_unit_code: z.string().min(1),
  units: z.record(z.string(), measurementUnitSchema),
});

const referenceEntitySchema = z.strictObject({
  code: pimCodeSchema,
  labels: textLabels.default({}),
  image: nullableText,
});

/** The key is `channel`, not `scope` as in product values (reference §7). */
const recordValueSchema = z.strictObject({
  locale: z.string().nullable(),
  channel: z.string().nullable(),
  data: z.json(),
});

/** Fixed rather than "now", so two loads of one catalogue serve identical records. */
const CATALOGUE_TIMESTAMP = "2024-01-01T00:00:00+00:00";

const recordSchema = z.strictObject({
  code: pimCodeSchema,
  values: z.record(z.string(), z.array(recordValueSchema)).default({}),
  created: z.string().default(CATALOGUE_TIMESTAMP),
  updated: z.string().default(CATALOGUE_TIMESTAMP),
});

export const pimCatalogSchema = z
  .strictObject({
    locales: z.array(localeSchema).default([]),
    currencies: z.array(currencySchema).default([]),
    channels: z.array(channelSchema).default([]),
    attributes: z.array(attributeSchema).default([]),
    attribute_options: z.record(z.string(), z.array(attributeOptionSchema)).default({}),
    families: z.array(familySchema).default([]),
    measurement_families: z.array(measurementFamilySchema).default([]),
    reference_entities: z.array(referenceEntitySchema).default([]),
    reference_entity_records: z.record(z.string(), z.array(recordSchema)).default({}),
  })
  .superRefine(checkPimCrossReferences);

export type PimCatalog = z.output<typeof pimCatalogSchema>;
export type PimCatalogAttribute = z.output<typeof attributeSchema>;
export type PimCatalogOption = z.output<typeof attributeOptionSchema>;
export type PimCatalogRecord = z.output<typeof recordSchema>;
export type PimCatalogRecordValue = z.output<typeof recordValueSchema>;
