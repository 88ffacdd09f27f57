/** The simulator catalogue's PIM part as the domain structure pim-sync derives from (what the PIM client would read). */
import type { PimCatalogStructure } from "../../src/core/domain/pim-catalog.js";
import type { SimCatalog } from "../../sim/catalog/catalog-file.js";

export function toPimStructure(pim: SimCatalog["pim"]): PimCatalogStructure {
  return {
    attributes: pim.attributes.map((attribute) => ({
      code: attribute.code,
      type: attribute.type,
      localizable: attribute.localizable,
      scopable: attribute.scopable,
      availableLocales: attribute.available_locales,
      metricFamily: attribute.metric_family,
      referenceDataName: attribute.reference_data_name,
      labels: attribute.labels,
    })),
    channels: pim.channels.map((channel) => ({ code: channel.code, locales: channel.locales, currencies: channel.currencies })),
    locales: pim.locales.map((locale) => ({ code: locale.code, enabled: locale.enabled })),
    currencies: pim.currencies.map((currency) => ({ code: currency.code, enabled: currency.enabled })),
    families: pim.families.map((family) => ({ code: family.code, attributes: family.attributes })),
    measurementFamilies: pim.measurement_families.map((family) => ({
      code: family.code,
      units: Object.values(family.units).map((unit) => ({ code: unit.code, labels: unit.labels })),
    })),
  };
}
