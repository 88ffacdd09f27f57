export { pimLocaleToServiceLocale, serviceLocaleToPimLocale } from "./locale-code.js";
export { serviceLabelsEqual, toServiceLabels } from "./labels.js";
export { DEFAULT_NAMING, renderName, validateNamingTemplates } from "./naming.js";
export type { NamingTemplates } from "./naming.js";
export { resolveProjectScope } from "./project-scope.js";
export type { ProjectFilters, ProjectScope } from "./project-scope.js";
export { deriveCollectionSpecs } from "./derive-collection-specs.js";
export type { DerivedSpecs, UnsupportedAttribute } from "./derive-collection-specs.js";
export { optionsFromAttributeOptions, optionsFromCurrencies, optionsFromMeasurementFamily, optionsFromRecords } from "./derive-options.js";
