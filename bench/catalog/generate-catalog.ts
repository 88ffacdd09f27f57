/**
 * The second half of generation: a plan turned into the simulators' catalogue (`SimCatalog`,
 * already in its parsed shape, defaults filled in), with the service listing a collection for
 * every derived collection so that nothing is "missing".
 *
 * Memory matters at the option-heavy size (1M options, held by the simulators anyway): options
 * are built straight into their final arrays, in code order (the PIM simulator sorts each list on
 * every page request, and an already sorted array sorts in one pass), with short codes and labels,
 * and nothing is parsed through zod.
 */
import { SELECT_ATTRIBUTE_TYPES } from "../../src/core/domain/pim-catalog.js";
import type { SimCatalog } from "../../sim/catalog/catalog-file.js";
import type { PimCatalogAttribute, PimCatalogOption, PimCatalogRecord } from "../../sim/catalog/pim-catalog-schema.js";
import { CATALOG_SIZES, type CatalogSize, type CatalogSizeName } from "./catalog-sizes.js";
import { LABEL_WORDS, MEASUREMENT_FAMILIES } from "./catalog-vocabulary.js";
import { deriveServiceCollectionNames } from "./derive-service-collections.js";
import { LABEL_ATTRIBUTE, planCatalog, type AttributePlan, type CatalogPlan } from "./plan-catalog.js";

/** The configuration-service project every benchmark syncs. */
export const BENCH_PROJECT = 67;
export const DEFAULT_SEED = 20261122;
const TIMESTAMP = "2024-01-01T00:00:00+00:00";

export function generateCatalog(size: CatalogSize | CatalogSizeName, seed: number = DEFAULT_SEED): SimCatalog {
  return materializeCatalog(planCatalog(typeof size === "string" ? CATALOG_SIZES[size] : size, seed));
}

export function materializeCatalog(plan: CatalogPlan, project: number = BENCH_PROJECT): SimCatalog {
  const attributeOptions: Record<string, PimCatalogOption[]> = {};
  for (const attribute of plan.attributes) {
    if (attribute.optionCount > 0) attributeOptions[attribute.code] = optionsOf(attribute.optionCount, plan.labelLocales);
  }
  const records: Record<string, PimCatalogRecord[]> = {};
  for (const entity of plan.referenceEntities) records[entity.code] = recordsOf(entity.recordCount, plan.labelLocales);

  const pim: SimCatalog["pim"] = {
    locales: plan.locales.map((locale) => ({ ...locale })),
    currencies: plan.currencies.map((currency) => ({ ...currency, label: currency.code })),
    channels: plan.channels.map((channel) => ({
      code: channel.code,
      locales: [...channel.locales],
      currencies: [...channel.currencies],
      category_tree: "master",
      conversion_units: {},
      labels: { en_US: channel.code },
    })),
    attributes: plan.attributes.map(toSimAttribute),
    attribute_options: attributeOptions,
    families: plan.families.map((family) => ({
      code: family.code,
      attributes: [...family.attributes],
      attribute_as_label: LABEL_ATTRIBUTE,
      attribute_as_image: null,
      attribute_requirements: {},
      labels: { en_US: family.code },
    })),
    measurement_families: MEASUREMENT_FAMILIES.map((family) => ({
      code: family.code,
      labels: { en_US: family.code },
      standard_unit_code: family.standardUnit,
      units: Object.fromEntries(
        family.units.map((unit) => [
          unit,
          {
            code: unit,
            labels: { en_US: unit.toLowerCase() },
            convert_from_standard: [{ operator: "mul" as const, value: "1" }],
            symbol: unit.slice(0, 2),
          },
        ]),
      ),
    })),
    reference_entities: plan.referenceEntities.map((entity) => ({ code: entity.code, labels: { en_US: entity.code }, image: null })),
    reference_entity_records: records,
  };
  const names = deriveServiceCollectionNames(pim);
  return {
    pim,
    service: {
      projects: [project],
      collections: names.map((name, index) => ({ id: index + 1, name, project, options: [] })),
    },
  };
}

/** Zero-padded so that creation order is the PIM's code order. */
function optionsOf(count: number, labelLocales: readonly string[]): PimCatalogOption[] {
  const options = new Array<PimCatalogOption>(count);
  for (let i = 0; i < count; i += 1) {
    options[i] = { code: `o${String(i).padStart(6, "0")}`, sort_order: i, labels: labelsOf(i, labelLocales) };
  }
  return options;
}

function recordsOf(count: number, labelLocales: readonly string[]): PimCatalogRecord[] {
  const records = new Array<PimCatalogRecord>(count);
  for (let i = 0; i < count; i += 1) {
    const label = labelLocales.map((locale) => ({ locale, channel: null, data: `${LABEL_WORDS[locale] ?? "Value"} ${i}` }));
    records[i] = { code: `r${String(i).padStart(6, "0")}`, values: { label }, created: TIMESTAMP, updated: TIMESTAMP };
  }
  return records;
}

function labelsOf(index: number, labelLocales: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const locale of labelLocales) labels[locale] = `${LABEL_WORDS[locale] ?? "Value"} ${index}`;
  return labels;
}

/** Every field the schema defaults, filled the way the schema would. */
function toSimAttribute(attribute: AttributePlan): PimCatalogAttribute {
  const metric = attribute.type === SELECT_ATTRIBUTE_TYPES.metric;
  const standardUnit = MEASUREMENT_FAMILIES.find((family) => family.code === attribute.metricFamily)?.standardUnit ?? null;
  return {
    code: attribute.code,
    type: attribute.type,
    group: attribute.group,
    group_labels: {},
    localizable: attribute.localizable,
    scopable: attribute.scopable,
    labels: { en_US: attribute.code },
    unique: attribute.type === "pim_catalog_identifier",
    useable_as_grid_filter: false,
    allowed_extensions: [],
    metric_family: attribute.metricFamily,
    default_metric_unit: metric ? standardUnit : null,
    reference_data_name: attribute.referenceEntity,
    available_locales: [],
    max_characters: null,
    validation_rule: null,
    validation_regexp: null,
    wysiwyg_enabled: null,
    number_min: null,
    number_max: null,
    decimals_allowed: null,
    negative_allowed: null,
    date_min: null,
    date_max: null,
    max_file_size: null,
    minimum_input_length: null,
    sort_order: 0,
    default_value: null,
    is_mandatory: false,
    decimal_places_strategy: null,
    decimal_places: null,
  };
}
