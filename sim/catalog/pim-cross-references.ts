/**
 * Checks that the PIM catalogue's parts point at each other correctly (an option list for an
 * attribute that exists and has options, a channel's locales that exist…). A dangling reference
 * would make the simulator serve a catalogue no real PIM can hold, so it is rejected at load time
 * with the path of the offending value.
 */
import type { z } from "zod";

/** Only what the checks read; kept structural so the schema file can type itself from its output. */
interface CrossReferencedPim {
  readonly locales: readonly { readonly code: string }[];
  readonly currencies: readonly { readonly code: string }[];
  readonly channels: readonly { readonly code: string; readonly locales: readonly string[]; readonly currencies: readonly string[] }[];
  readonly attributes: readonly {
    readonly code: string;
    readonly type: string;
    readonly available_locales: readonly string[];
    readonly metric_family: string | null;
    readonly default_metric_unit: string | null;
    readonly reference_data_name: string | null;
  }[];
  readonly attribute_options: Readonly<Record<string, readonly { readonly code: string }[]>>;
  readonly families: readonly { readonly code: string; readonly attributes: readonly string[]; readonly attribute_as_label: string }[];
  readonly measurement_families: readonly {
    readonly code: string;
    readonly standard_unit_code: string;
    readonly units: Readonly<Record<string, { readonly code: string }>>;
  }[];
  readonly reference_entities: readonly { readonly code: string }[];
  readonly reference_entity_records: Readonly<Record<string, readonly { readonly code: string }[]>>;
}

const SELECT_TYPES = new Set(["pim_catalog_simpleselect", "pim_catalog_multiselect"]);
const REFERENCE_ENTITY_TYPES = new Set(["akeneo_reference_entity", "akeneo_reference_entity_collection"]);

export function checkPimCrossReferences(pim: CrossReferencedPim, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string): void => {
    ctx.addIssue({ code: "custom", path, message });
  };
  const uniqueCodes = (items: readonly { readonly code: string }[], path: (string | number)[]): void => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(item.code)) issue([...path, index, "code"], `duplicate code "${item.code}"`);
      seen.add(item.code);
    });
  };

  for (const key of [
    "locales",
    "currencies",
    "channels",
    "attributes",
    "families",
    "measurement_families",
    "reference_entities",
  ] as const) {
    uniqueCodes(pim[key], [key]);
  }

  const locales = new Set(pim.locales.map((locale) => locale.code));
  const currencies = new Set(pim.currencies.map((currency) => currency.code));
  pim.channels.forEach((channel, index) => {
    channel.locales.forEach((code, at) => {
      if (!locales.has(code)) issue(["channels", index, "locales", at], `unknown locale "${code}"`);
    });
    channel.currencies.forEach((code, at) => {
      if (!currencies.has(code)) issue(["channels", index, "currencies", at], `unknown currency "${code}"`);
    });
  });

  const families = new Map(pim.measurement_families.map((family) => [family.code, family]));
  const entities = new Set(pim.reference_entities.map((entity) => entity.code));
  pim.attributes.forEach((attribute, index) => {
    attribute.available_locales.forEach((code, at) => {
      if (!locales.has(code)) issue(["attributes", index, "available_locales", at], `unknown locale "${code}"`);
    });
    if (attribute.type === "pim_catalog_metric") {
      const family = attribute.metric_family === null ? undefined : families.get(attribute.metric_family);
      if (family === undefined) {
        issue(["attributes", index, "metric_family"], "a metric attribute needs an existing measurement family");
      } else if (attribute.default_metric_unit === null || family.units[attribute.default_metric_unit] === undefined) {
        issue(["attributes", index, "default_metric_unit"], `must be a unit of measurement family "${family.code}"`);
      }
    }
    if (
      REFERENCE_ENTITY_TYPES.has(attribute.type) &&
      (attribute.reference_data_name === null || !entities.has(attribute.reference_data_name))
    ) {
      issue(["attributes", index, "reference_data_name"], "a reference entity attribute needs an existing reference entity");
    }
  });

  const attributes = new Map(pim.attributes.map((attribute) => [attribute.code, attribute]));
  for (const [code, options] of Object.entries(pim.attribute_options)) {
    const attribute = attributes.get(code);
    if (attribute === undefined || !SELECT_TYPES.has(attribute.type)) {
      issue(["attribute_options", code], `"${code}" is not a simple or multi select attribute`);
    }
    uniqueCodes(options, ["attribute_options", code]);
  }

  pim.families.forEach((family, index) => {
    family.attributes.forEach((code, at) => {
      if (!attributes.has(code)) issue(["families", index, "attributes", at], `unknown attribute "${code}"`);
    });
    if (!family.attributes.includes(family.attribute_as_label)) {
      issue(["families", index, "attribute_as_label"], "must be one of the family's attributes");
    }
  });

  pim.measurement_families.forEach((family, index) => {
    for (const [key, unit] of Object.entries(family.units)) {
      if (unit.code !== key) issue(["measurement_families", index, "units", key, "code"], `must equal its key "${key}"`);
    }
    if (family.units[family.standard_unit_code] === undefined) {
      issue(["measurement_families", index, "standard_unit_code"], "must be one of the family's units");
    }
  });

  for (const [code, records] of Object.entries(pim.reference_entity_records)) {
    if (!entities.has(code)) issue(["reference_entity_records", code], `unknown reference entity "${code}"`);
    uniqueCodes(records, ["reference_entity_records", code]);
  }
}
