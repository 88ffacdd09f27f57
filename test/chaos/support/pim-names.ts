import type { PimState } from "../../../sim/pim/pim-state.js";

/**
 * The option names the PIM has now for a collection of the sample catalogue (default naming:
 * the attribute code is the name up to its first '-'), lower-cased: the PIM compares codes
 * case-insensitively, so an option is "still in the PIM" whatever the case it was written in.
 * Undefined for a collection no attribute derives.
 */
export function pimNamesOf(state: PimState, collection: string): ReadonlySet<string> | undefined {
  const code = collection.split("-", 1)[0] ?? collection;
  const attribute = state.attributes.find((candidate) => candidate.code === code);
  if (attribute === undefined) return undefined;
  let names: string[];
  if (attribute.type === "pim_catalog_simpleselect" || attribute.type === "pim_catalog_multiselect") {
    names = (state.attribute_options[code] ?? []).map((option) => option.code);
  } else if (attribute.type.startsWith("akeneo_reference_entity") && attribute.reference_data_name !== null) {
    names = (state.reference_entity_records[attribute.reference_data_name] ?? []).map((record) => record.code);
  } else if (attribute.type === "pim_catalog_metric") {
    const family = state.measurement_families.find((candidate) => candidate.code === attribute.metric_family);
    names = family === undefined ? [] : Object.keys(family.units);
  } else if (attribute.type === "pim_catalog_price_collection") {
    names = state.channels.flatMap((channel) => channel.currencies);
  } else {
    return undefined;
  }
  return new Set(names.map((name) => name.toLowerCase()));
}
