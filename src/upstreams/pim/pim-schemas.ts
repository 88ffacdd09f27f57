import { z } from "zod";
import { parseNdjson } from "./parse-ndjson.js";
import { CURRENCY_ENABLED_WHEN_UNSAID } from "./pim-assumptions.js";

/**
 * Akeneo wire formats, as the PIM sends them. Objects are not strict: Akeneo adds fields between
 * versions (and SaaS ahead of PaaS), and a new field must never break a sync. Where PHP
 * serialises an empty map as `[]` or a field comes back as null instead of empty, the schema
 * accepts every form and normalises it, so mapping code sees one shape only.
 *
 * Required here is what Akeneo's API description (Swagger, `content/swagger/` of
 * akeneo/pim-api-docs) requires, and nothing more, with three exceptions the description leaves
 * optional but without which an answer says nothing usable: a token answer's `access_token`, a
 * list page's `_embedded.items`, and a link's `href` (decision 0009). A property the description
 * leaves optional gets its documented default when it has one; otherwise pim-assumptions.ts says
 * what its absence is read as.
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

/** A boolean the description makes optional with a documented default; null reads as that default too. */
function flagWithDefault(documentedDefault: boolean) {
  return z
    .boolean()
    .nullish()
    .transform((flag) => flag ?? documentedDefault);
}

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

/**
 * The description requires none of these. Without `access_token` there is nothing to use, so it
 * stays required. Without `expires_in` the token is used until a 401; without `refresh_token`
 * it is renewed by a new password grant (pim-auth.ts). Null reads as left out.
 */
export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z
    .number()
    .positive()
    .nullish()
    .transform((seconds) => seconds ?? undefined),
  token_type: z.string().nullish(),
  // Documented as a string, always null in practice; unused either way.
  scope: z.string().nullish(),
  refresh_token: z
    .string()
    .min(1)
    .nullish()
    .transform((token) => token ?? undefined),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const attributeSchema = z.object({
  code: z.string(),
  type: z.string(),
  // Optional, documented default false: one value for every locale, for every channel.
  localizable: flagWithDefault(false),
  scopable: flagWithDefault(false),
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
 * real payload (`enabled` wins when both come). A locale carrying neither is disabled: `enabled`
 * is optional with the documented default false.
 */
export const localeSchema = z
  .object({ code: z.string(), enabled: z.boolean().nullish(), enable: z.boolean().nullish() })
  .transform(({ code, enabled, enable }) => ({ code, enabled: enabled ?? enable ?? false }));
export type WireLocale = z.infer<typeof localeSchema>;

/** Only `code` is required; `enabled` and `label` have no documented default (pim-assumptions.ts). */
export const currencySchema = z.object({
  code: z.string(),
  enabled: z
    .boolean()
    .nullish()
    .transform((enabled) => enabled ?? CURRENCY_ENABLED_WHEN_UNSAID),
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

/**
 * One value of a record attribute; `data`'s type depends on the attribute type, hence unknown.
 * The description requires none of the three: a missing `locale`/`channel` is none, a missing
 * `data` no value (so no label).
 */
const recordValueSchema = z.object({
  locale: z.string().nullish(),
  channel: z.string().nullish(),
  data: z.unknown().optional(),
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
