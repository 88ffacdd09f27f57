/**
 * How the PIM simulator dresses what it serves. `full` sends every property, as the published
 * examples do (and as a real PIM does). `sparse` leaves out every property Akeneo's API
 * description (its Swagger file) makes optional, except where the description itself gives
 * the absence another meaning than the value held, so clients are tested against the thinnest
 * answers the description allows for the same catalogue:
 *
 * - required properties stay;
 * - an optional property with a documented default goes when it holds that default
 *   (`localizable`/`scopable` false, a locale's `enabled` false, `labels` {}, a family's
 *   `attributes` [], `sort_order` 0, `image` null);
 * - one the description requires for some attribute types stays for those types only
 *   (`metric_family`/`default_metric_unit` for metrics, `reference_data_name` for reference
 *   entity links and asset collections);
 * - a list or map of catalogue content without a default goes when empty (`available_locales`,
 *   a record's `values`);
 * - every other optional property goes, whatever it holds: a currency's `enabled` and `label`,
 *   an option's `attribute` and `sort_order`, a unit's `code`, `symbol` and conversions, record
 *   values' null `locale`/`channel`, `created`/`updated`, an item's `_links`, a page's
 *   `current_page`, and a token answer's everything but `access_token`.
 *
 * A page keeps `_links` (its `next` is how a list goes on) and `_embedded`, and `items_count`
 * when `with_count=true` asked for it. Write answers are left as they are: their per-item
 * `status_code` is what says whether an item was written.
 */
import type { PimCatalogAttribute, PimCatalogOption, PimCatalogRecord } from "../catalog/pim-catalog-schema.js";
import type { PimState } from "./pim-state.js";
import type { TokenPair } from "./token-store.js";

export type PimAnswerShape = "full" | "sparse";

type Channel = PimState["channels"][number];
type Locale = PimState["locales"][number];
type Currency = PimState["currencies"][number];
type Family = PimState["families"][number];
type MeasurementFamily = PimState["measurement_families"][number];
type ReferenceEntity = PimState["reference_entities"][number];

export interface ResourceForms {
  readonly shape: PimAnswerShape;
  attribute(attribute: PimCatalogAttribute): object;
  option(attributeCode: string, option: PimCatalogOption): object;
  channel(channel: Channel): object;
  locale(locale: Locale): object;
  currency(currency: Currency): object;
  family(family: Family): object;
  measurementFamily(family: MeasurementFamily): object;
  referenceEntity(entity: ReferenceEntity): object;
  record(record: PimCatalogRecord): object;
  token(pair: TokenPair): object;
  /** An item of a list: `_links.self` first, then the resource (full), or the resource alone (sparse). */
  listItem(href: string, resource: object): object;
  /** Whether a page carries `current_page`. */
  readonly currentPage: boolean;
}

const METRIC_TYPES: readonly string[] = ["pim_catalog_metric"];
const LINK_TYPES: readonly string[] = ["akeneo_reference_entity", "akeneo_reference_entity_collection", "pim_catalog_asset_collection"];

export function resourceFormsOf(shape: PimAnswerShape): ResourceForms {
  if (shape === "sparse") return SPARSE;
  return FULL;
}

const FULL: ResourceForms = {
  shape: "full",
  attribute: (attribute) => attribute,
  // The option as the PIM serves it: with its attribute code.
  option: (attributeCode, option) => ({
    code: option.code,
    attribute: attributeCode,
    sort_order: option.sort_order,
    labels: option.labels,
  }),
  channel: (channel) => channel,
  locale: (locale) => locale,
  currency: (currency) => currency,
  family: (family) => family,
  measurementFamily: (family) => family,
  referenceEntity: (entity) => entity,
  record: (record) => record,
  // Field order and values as token_response.json; scope is always null.
  token: (pair) => ({
    access_token: pair.access_token,
    expires_in: pair.expires_in,
    token_type: "bearer",
    scope: null,
    refresh_token: pair.refresh_token,
  }),
  listItem: (href, resource) => ({ _links: { self: { href } }, ...resource }),
  currentPage: true,
};

const SPARSE: ResourceForms = {
  shape: "sparse",
  attribute: (attribute) => ({
    code: attribute.code,
    type: attribute.type,
    group: attribute.group,
    ...unlessEmpty("labels", attribute.labels),
    ...unlessEmpty("group_labels", attribute.group_labels),
    ...unless("localizable", attribute.localizable, false),
    ...unless("scopable", attribute.scopable, false),
    ...unless("sort_order", attribute.sort_order, 0),
    ...unlessEmpty("available_locales", attribute.available_locales),
    ...(METRIC_TYPES.includes(attribute.type)
      ? { ...unless("metric_family", attribute.metric_family, null), ...unless("default_metric_unit", attribute.default_metric_unit, null) }
      : {}),
    ...(LINK_TYPES.includes(attribute.type) ? unless("reference_data_name", attribute.reference_data_name, null) : {}),
  }),
  option: (_attributeCode, option) => ({ code: option.code, ...unlessEmpty("labels", option.labels) }),
  channel: (channel) => ({
    code: channel.code,
    locales: channel.locales,
    currencies: channel.currencies,
    category_tree: channel.category_tree,
    ...unlessEmpty("labels", channel.labels),
  }),
  locale: (locale) => ({ code: locale.code, ...unless("enabled", locale.enabled, false) }),
  currency: (currency) => ({ code: currency.code }),
  family: (family) => ({
    code: family.code,
    attribute_as_label: family.attribute_as_label,
    ...unlessEmpty("attributes", family.attributes),
    ...unless("attribute_as_image", family.attribute_as_image, null),
    ...unlessEmpty("labels", family.labels),
  }),
  measurementFamily: (family) => ({
    code: family.code,
    ...unlessEmpty("labels", family.labels),
    standard_unit_code: family.standard_unit_code,
    units: Object.fromEntries(Object.entries(family.units).map(([key, unit]) => [key, unlessEmpty("labels", unit.labels)])),
  }),
  referenceEntity: (entity) => ({ code: entity.code, ...unlessEmpty("labels", entity.labels), ...unless("image", entity.image, null) }),
  record: (record) => ({
    code: record.code,
    ...unlessEmpty(
      "values",
      Object.fromEntries(
        Object.entries(record.values).map(([attribute, values]) => [
          attribute,
          values.map((value) => ({ ...unless("locale", value.locale, null), ...unless("channel", value.channel, null), data: value.data })),
        ]),
      ),
    ),
  }),
  token: (pair) => ({ access_token: pair.access_token }),
  listItem: (_href, resource) => resource,
  currentPage: false,
};

/** `{ [key]: value }`, or nothing when the value is `fallback`. */
function unless<K extends string, V>(key: K, value: V, fallback: V): Partial<Record<K, V>> {
  const entry: Partial<Record<K, V>> = {};
  if (value !== fallback) entry[key] = value;
  return entry;
}

/** `{ [key]: value }`, or nothing when the list or map is empty. */
function unlessEmpty<K extends string, V extends object>(key: K, value: V): Partial<Record<K, V>> {
  const entry: Partial<Record<K, V>> = {};
  if (Object.keys(value).length > 0) entry[key] = value;
  return entry;
}
