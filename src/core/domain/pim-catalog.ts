/**
 * The PIM catalogue structure as pim-sync needs it: already parsed and reduced from the wire
 * format by the PIM client (src/upstreams/pim/), so the pure core never sees Akeneo's JSON.
 *
 * Labels keep PIM locale codes (`en_US`) and may hold null or empty strings: the PIM sends
 * both for "no label", and turning them into the service's shape is derive/'s job.
 */

/** PIM labels: locale code (`en_US`) → text; null or "" mean "no label". */
export type PimLabels = Readonly<Record<string, string | null>>;

export type PimAttributeType = string;

export interface PimAttribute {
  readonly code: string;
  readonly type: PimAttributeType;
  readonly localizable: boolean;
  readonly scopable: boolean;
  /** Locale-specific attribute: restricted to these locales. Empty means no restriction. */
  readonly availableLocales: readonly string[];
  /** Measurement family code, for `pim_catalog_metric`. */
  readonly metricFamily: string | null;
  /** Reference entity code for `akeneo_reference_entity*`; reference-data name for legacy types. */
  readonly referenceDataName: string | null;
  readonly labels: PimLabels;
}

export interface PimChannel {
  readonly code: string;
  readonly locales: readonly string[];
  readonly currencies: readonly string[];
}

export interface PimLocale {
  readonly code: string;
  readonly enabled: boolean;
}

export interface PimCurrency {
  readonly code: string;
  readonly enabled: boolean;
}

export interface PimFamily {
  readonly code: string;
  readonly attributes: readonly string[];
}

export interface PimMeasurementUnit {
  readonly code: string;
  readonly labels: PimLabels;
}

export interface PimMeasurementFamily {
  readonly code: string;
  readonly units: readonly PimMeasurementUnit[];
}

/** An option of a simple or multi select attribute. */
export interface PimAttributeOption {
  readonly code: string;
  readonly labels: PimLabels;
}

/**
 * A reference-entity record, reduced to what a select option needs: its code and the values of
 * its label attribute (`label`), one per locale.
 */
export interface PimRecord {
  readonly code: string;
  readonly labels: PimLabels;
}

/**
 * Everything but the options: small enough to hold in memory whatever the catalogue size
 * (attributes are at most a few thousand). Options and records are streamed separately.
 */
export interface PimCatalogStructure {
  readonly attributes: readonly PimAttribute[];
  readonly channels: readonly PimChannel[];
  readonly locales: readonly PimLocale[];
  readonly currencies: readonly PimCurrency[];
  readonly families: readonly PimFamily[];
  readonly measurementFamilies: readonly PimMeasurementFamily[];
  /**
   * A targeted read only: attribute codes whose read the PIM (or a proxy before it) refused for
   * good (a 4xx), with the reason. Absent from `attributes`, but not gone: nothing may be planned
   * from their absence; their targets are settled as refused.
   */
  readonly unreadAttributes?: readonly { readonly codes: readonly string[]; readonly reason: string }[];
}

/** Attribute types pim-sync turns into select fields. */
export const SELECT_ATTRIBUTE_TYPES = {
  simpleSelect: "pim_catalog_simpleselect",
  multiSelect: "pim_catalog_multiselect",
  referenceEntity: "akeneo_reference_entity",
  referenceEntityCollection: "akeneo_reference_entity_collection",
  metric: "pim_catalog_metric",
  priceCollection: "pim_catalog_price_collection",
} as const;

/** Legacy reference data: reported as unsupported (the PIM API exposes no options for them). */
export const UNSUPPORTED_ATTRIBUTE_TYPES = ["pim_reference_data_simpleselect", "pim_reference_data_multiselect"] as const;

/** The `type` filter sent when listing attributes: only the types that can matter. */
export const ATTRIBUTE_TYPES_TO_READ: readonly string[] = [...Object.values(SELECT_ATTRIBUTE_TYPES), ...UNSUPPORTED_ATTRIBUTE_TYPES];
