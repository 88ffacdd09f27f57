import type {
  PimAttribute,
  PimAttributeOption,
  PimChannel,
  PimCurrency,
  PimFamily,
  PimLocale,
  PimMeasurementFamily,
  PimRecord,
} from "../../core/domain/pim-catalog.js";
import type {
  WireAttribute,
  WireAttributeOption,
  WireChannel,
  WireCurrency,
  WireFamily,
  WireLocale,
  WireMeasurementFamily,
  WireRecord,
} from "./pim-schemas.js";
import { labelsFromRecordValues } from "./record-label-values.js";

/**
 * Wire → domain: the pure core never sees Akeneo's JSON. The schemas have already turned every
 * "empty" form ([] / null / missing) into one shape, so these are plain renames and reductions.
 */

export function toPimAttribute(wire: WireAttribute): PimAttribute {
  return {
    code: wire.code,
    type: wire.type,
    localizable: wire.localizable,
    scopable: wire.scopable,
    availableLocales: wire.available_locales,
    metricFamily: wire.metric_family,
    referenceDataName: wire.reference_data_name,
    labels: wire.labels,
  };
}

export function toPimAttributeOption(wire: WireAttributeOption): PimAttributeOption {
  return { code: wire.code, labels: wire.labels };
}

export function toPimChannel(wire: WireChannel): PimChannel {
  return { code: wire.code, locales: wire.locales, currencies: wire.currencies };
}

export function toPimLocale(wire: WireLocale): PimLocale {
  return { code: wire.code, enabled: wire.enabled };
}

export function toPimCurrency(wire: WireCurrency): PimCurrency {
  return { code: wire.code, enabled: wire.enabled };
}

export function toPimFamily(wire: WireFamily): PimFamily {
  return { code: wire.code, attributes: wire.attributes };
}

/** `units` is an object keyed by unit code; the domain wants a list in the PIM's order. */
export function toPimMeasurementFamily(wire: WireMeasurementFamily): PimMeasurementFamily {
  const units = Object.entries(wire.units).map(([key, unit]) => ({ code: unit.code ?? key, labels: unit.labels }));
  return { code: wire.code, units };
}

export function toPimRecord(wire: WireRecord): PimRecord {
  return { code: wire.code, labels: labelsFromRecordValues(wire.values) };
}
