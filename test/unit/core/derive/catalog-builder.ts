import type {
  PimAttribute,
  PimCatalogStructure,
  PimChannel,
  PimCurrency,
  PimFamily,
  PimLocale,
  PimMeasurementFamily,
} from "../../../../src/core/domain/pim-catalog.js";
import type { ProjectScope } from "../../../../src/core/derive/project-scope.js";

/** Small catalogue pieces with plain defaults, so each test states only what it is about. */

export function attribute(code: string, type: string, overrides: Partial<PimAttribute> = {}): PimAttribute {
  return {
    code,
    type,
    localizable: false,
    scopable: false,
    availableLocales: [],
    metricFamily: null,
    referenceDataName: null,
    labels: {},
    ...overrides,
  };
}

export function channel(code: string, locales: readonly string[], currencies: readonly string[] = ["EUR"]): PimChannel {
  return { code, locales, currencies };
}

export function locales(enabled: readonly string[], disabled: readonly string[] = []): PimLocale[] {
  return [...enabled.map((code) => ({ code, enabled: true })), ...disabled.map((code) => ({ code, enabled: false }))];
}

export function currencies(enabled: readonly string[], disabled: readonly string[] = []): PimCurrency[] {
  return [...enabled.map((code) => ({ code, enabled: true })), ...disabled.map((code) => ({ code, enabled: false }))];
}

export function family(code: string, attributes: readonly string[]): PimFamily {
  return { code, attributes };
}

export function measurementFamily(code: string, unitCodes: readonly string[]): PimMeasurementFamily {
  return { code, units: unitCodes.map((unit) => ({ code: unit, labels: { en_US: unit } })) };
}

export function catalog(parts: Partial<PimCatalogStructure> = {}): PimCatalogStructure {
  return {
    attributes: [],
    channels: [],
    locales: [],
    currencies: [],
    families: [],
    measurementFamilies: [],
    ...parts,
  };
}

export function scope(parts: Partial<ProjectScope> = {}): ProjectScope {
  return { channels: [], locales: [], currencies: [], ...parts };
}
