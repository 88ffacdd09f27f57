/**
 * The benchmark catalogues, modelled on Akeneo's representative catalogues (small, medium, large)
 * plus an option-heavy one. Every number here is documented in docs/benchmarks.md; change both together.
 */

export const CATALOG_SIZE_NAMES = ["small", "medium", "large", "option-heavy"] as const;
export type CatalogSizeName = (typeof CATALOG_SIZE_NAMES)[number];

/** Shares of all attributes per type the sync cares about; the rest are text, number, date… (ignored by the sync). */
export interface TypeShares {
  readonly simpleSelect: number;
  readonly multiSelect: number;
  readonly referenceEntity: number;
  readonly referenceEntityCollection: number;
  readonly metric: number;
  readonly priceCollection: number;
}

export interface OptionCounts {
  /** A typical select attribute's option count: log-uniform in [min, max]. */
  readonly min: number;
  readonly max: number;
  /** This share of the other select attributes have a long list instead, log-uniform in [longMin, longMax]. */
  readonly longShare: number;
  readonly longMin: number;
  readonly longMax: number;
  /** This many select attributes have a very long list, uniform in [hugeMin, hugeMax]. */
  readonly huge: number;
  readonly hugeMin: number;
  readonly hugeMax: number;
  /** When set, the non-huge counts are scaled so that every option of the catalogue adds up to this. */
  readonly targetTotal?: number;
}

export interface CatalogSize {
  readonly name: CatalogSizeName;
  readonly attributes: number;
  readonly enabledLocales: number;
  readonly disabledLocales: number;
  readonly channels: number;
  readonly enabledCurrencies: number;
  readonly families: number;
  /** Each family holds about this share of the attributes. */
  readonly familyAttributeShare: number;
  readonly localizableShare: number;
  readonly scopableShare: number;
  readonly types: TypeShares;
  readonly options: OptionCounts;
  /** Options and records carry labels in the first N enabled locales. */
  readonly labelLocales: number;
  readonly referenceEntities: { readonly count: number; readonly minRecords: number; readonly maxRecords: number };
}

/** Same shares at every size: about 30 % select attributes, a few metric, price and reference-entity ones. */
export const DEFAULT_TYPE_SHARES: TypeShares = {
  simpleSelect: 0.2,
  multiSelect: 0.1,
  referenceEntity: 0.02,
  referenceEntityCollection: 0.01,
  metric: 0.05,
  priceCollection: 0.02,
};

export const CATALOG_SIZES: Readonly<Record<CatalogSizeName, CatalogSize>> = {
  small: {
    name: "small",
    attributes: 100,
    enabledLocales: 2,
    disabledLocales: 1,
    channels: 1,
    enabledCurrencies: 2,
    families: 5,
    familyAttributeShare: 0.4,
    localizableShare: 0.1,
    scopableShare: 0.05,
    types: DEFAULT_TYPE_SHARES,
    options: { min: 2, max: 40, longShare: 0, longMin: 1, longMax: 1, huge: 0, hugeMin: 1, hugeMax: 1 },
    labelLocales: 2,
    referenceEntities: { count: 1, minRecords: 100, maxRecords: 300 },
  },
  medium: {
    name: "medium",
    attributes: 400,
    enabledLocales: 3,
    disabledLocales: 1,
    channels: 2,
    enabledCurrencies: 3,
    families: 20,
    familyAttributeShare: 0.25,
    localizableShare: 0.15,
    scopableShare: 0.05,
    types: DEFAULT_TYPE_SHARES,
    options: { min: 2, max: 100, longShare: 0.1, longMin: 100, longMax: 1_000, huge: 0, hugeMin: 1, hugeMax: 1 },
    labelLocales: 3,
    referenceEntities: { count: 2, minRecords: 500, maxRecords: 2_000 },
  },
  large: {
    name: "large",
    attributes: 1_000,
    enabledLocales: 4,
    disabledLocales: 2,
    channels: 3,
    enabledCurrencies: 4,
    families: 60,
    familyAttributeShare: 0.2,
    localizableShare: 0.2,
    scopableShare: 0.05,
    types: DEFAULT_TYPE_SHARES,
    options: { min: 2, max: 200, longShare: 0.1, longMin: 200, longMax: 2_000, huge: 0, hugeMin: 1, hugeMax: 1 },
    labelLocales: 4,
    referenceEntities: { count: 4, minRecords: 2_000, maxRecords: 8_000 },
  },
  "option-heavy": {
    name: "option-heavy",
    attributes: 500,
    enabledLocales: 3,
    disabledLocales: 1,
    channels: 2,
    enabledCurrencies: 3,
    families: 30,
    familyAttributeShare: 0.2,
    localizableShare: 0.1,
    scopableShare: 0.05,
    types: DEFAULT_TYPE_SHARES,
    options: {
      min: 50,
      max: 8_000,
      longShare: 0,
      longMin: 1,
      longMax: 1,
      huge: 16,
      hugeMin: 20_000,
      hugeMax: 50_000,
      targetTotal: 1_000_000,
    },
    // Two label locales, not three: the simulators hold every option in memory (twice for the PIM).
    labelLocales: 2,
    referenceEntities: { count: 2, minRecords: 1_000, maxRecords: 5_000 },
  },
};

export function isCatalogSizeName(name: string): name is CatalogSizeName {
  return (CATALOG_SIZE_NAMES as readonly string[]).includes(name);
}
