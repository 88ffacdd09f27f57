import { z } from "zod";
import { parseNdjson } from "./parse-ndjson.js";

/**
 * Akeneo wire formats, as the PIM sends them. Objects are not strict: Akeneo adds fields between
 * versions (and SaaS ahead of PaaS), and a new field must never break a sync. Where PHP
 * serialises an empty map as `[]` or a field comes back as null instead of empty, the schema
 * accepts every form and normalises it, so mapping code sees one shape only.
 */

/** PHP serialises an empty associative array as `[]`; that is the only array accepted as a map. */
const emptyPhpArray = z.tuple([]);

/** locale → text; `{}`, `[]`, null and a missing field all mean "no labels". */
export const labelsSchema = z
  .union([z.record(z.string(), z.string().nullable()), emptyPhpArray])
  .nullish()
  .transform((labels): Record<string, string | null> => (labels == null || Array.isArray(labels) ? {} : labels));

/** A list the PIM may send as `[]`, null or not at all when empty (`available_locales`). */
const codeListSchema = z
  .array(z.string())
  .nullish()
  .transform((codes) => codes ?? []);

const optionalCodeSchema = z
  .string()
  .nullish()
  .transform((code) => code ?? null);

const linkSchema = z.object({ href: z.string() });

const linksSchema = z.object({
  self: linkSchema.optional(),
  first: linkSchema.optional(),
  previous: linkSchema.optional(),
  next: linkSchema.optional(),
});

/** `page` pagination: `current_page` always, `items_count` only with `with_count=true`. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    _links: linksSchema.optional(),
    current_page: z.number().int().optional(),
    items_count: z.number().int().optional(),
    _embedded: z.object({ items: z.array(item) }),
  });
}

/** `search_after` pagination: the same envelope without page numbers; the cursor is in `next`. */
export function searchAfterPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    _links: linksSchema.optional(),
    _embedded: z.object({ items: z.array(item) }),
  });
}

export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
  token_type: z.string().optional(),
  // Documented as a string, always null in practice; unused either way.
  scope: z.string().nullish(),
  refresh_token: z.string().min(1),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const attributeSchema = z.object({
  code: z.string(),
  type: z.string(),
  localizable: z.boolean(),
  scopable: z.boolean(),
  available_locales: codeListSchema,
  metric_family: optionalCodeSchema,
  reference_data_name: optionalCodeSchema,
  labels: labelsSchema,
});
export type WireAttribute = z.infer<typeof attributeSchema>;

export const attributeOptionSchema = z.object({
  code: z.string(),
  attribute: z.string().optional(),
  sort_order: z.number().nullish(),
  labels: labelsSchema,
});
export type WireAttributeOption = z.infer<typeof attributeOptionSchema>;

/**
 * attributeCode → unit code (or null), plus on SaaS reserved keys holding nested rule objects.
 * Unused by pim-sync, but declared so the contract test documents that any value is accepted.
 */
export const conversionUnitsSchema = z.union([z.record(z.string(), z.unknown()), emptyPhpArray]).nullish();

export const channelSchema = z.object({
  code: z.string(),
  locales: z.array(z.string()),
  currencies: z.array(z.string()),
  category_tree: z.string().optional(),
  conversion_units: conversionUnitsSchema,
  labels: labelsSchema,
});
export type WireChannel = z.infer<typeof channelSchema>;

/**
 * `enabled` per the schema and every real answer; the published single-locale example (and the
 * concept doc) say `enable`. Accepting the typo as an alias costs nothing and cannot misread a
 * real payload; a locale carrying neither is rejected rather than guessed.
 */
export const localeSchema = z.union([
  z.object({ code: z.string(), enabled: z.boolean() }),
  z.object({ code: z.string(), enable: z.boolean() }).transform(({ code, enable }) => ({ code, enabled: enable })),
]);
export type WireLocale = z.infer<typeof localeSchema>;

export const currencySchema = z.object({
  code: z.string(),
  enabled: z.boolean(),
  label: z.string().nullish(),
});
export type WireCurrency = z.infer<typeof currencySchema>;

export const familySchema = z.object({
  code: z.string(),
  attributes: codeListSchema,
  labels: labelsSchema,
});
export type WireFamily = z.infer<typeof familySchema>;

const measurementUnitSchema = z.object({
  // The key of `units` is the unit code; the inner `code` repeats it and is trusted when present.
  code: z.string().optional(),
  labels: labelsSchema,
  symbol: z.string().nullish(),
});

export const measurementFamilySchema = z.object({
  code: z.string(),
  labels: labelsSchema,
  standard_unit_code: z.string().nullish(),
  units: z.union([z.record(z.string(), measurementUnitSchema), emptyPhpArray]).transform((units) => (Array.isArray(units) ? {} : units)),
});
export type WireMeasurementFamily = z.infer<typeof measurementFamilySchema>;

/** Not paginated: a plain array (at most 100 families of 50 units). */
export const measurementFamiliesSchema = z.array(measurementFamilySchema);

export const referenceEntitySchema = z.object({
  code: z.string(),
  labels: labelsSchema,
  image: z.string().nullish(),
});
export type WireReferenceEntity = z.infer<typeof referenceEntitySchema>;

/** One value of a record attribute; `data`'s type depends on the attribute type, hence unknown. */
const recordValueSchema = z.object({
  locale: z.string().nullish(),
  channel: z.string().nullish(),
  data: z.unknown(),
});

export const recordSchema = z.object({
  code: z.string(),
  // `created`/`updated` are left out on purpose: the doc example has seconds = 60, and pim-sync
  // has no use for them.
  values: z
    .union([z.record(z.string(), z.array(recordValueSchema)), emptyPhpArray])
    .nullish()
    .transform((values) => (values == null || Array.isArray(values) ? {} : values)),
});
export type WireRecord = z.infer<typeof recordSchema>;
export type WireRecordValue = z.infer<typeof recordValueSchema>;

const validationErrorSchema = z.object({ property: z.string().optional(), message: z.string() });

/**
 * One line of a collection PATCH answer (NDJSON). `code` is missing when the line could not be
 * read (invalid JSON, line too long, "Code is missing.").
 */
export const collectionLineSchema = z.object({
  line: z.number().int().positive(),
  code: z.string().optional(),
  status_code: z.number().int(),
  message: z.string().optional(),
  errors: z.array(validationErrorSchema).optional(),
});
export type CollectionLine = z.infer<typeof collectionLineSchema>;

/** The whole NDJSON body of a collection PATCH, one status per line sent. */
export const collectionResponseSchema = z.string().transform(parseNdjson).pipe(z.array(collectionLineSchema));

/** One item of a JSON-array upsert answer (records, measurement families). */
export const upsertItemResultSchema = z.object({
  code: z.string(),
  status_code: z.number().int(),
  message: z.string().optional(),
  errors: z.array(validationErrorSchema).optional(),
});
export type UpsertItemResult = z.infer<typeof upsertItemResultSchema>;

export const upsertListResponseSchema = z.array(upsertItemResultSchema);
