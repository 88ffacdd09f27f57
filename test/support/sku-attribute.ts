import type { PimAttribute } from "../../src/core/domain/pim-catalog.js";

/** The `sku` identifier attribute of Akeneo's example catalogue (and the simulator's), read into the domain. */
export const SKU_ATTRIBUTE: PimAttribute = {
  code: "sku",
  type: "pim_catalog_identifier",
  localizable: false,
  scopable: false,
  availableLocales: [],
  metricFamily: null,
  referenceDataName: null,
  labels: { en_US: "Identifier", fr_FR: "Identifiant" },
};
