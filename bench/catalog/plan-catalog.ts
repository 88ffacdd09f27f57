/**
 * The first half of generation: every count and every choice (types, option counts, which entity
 * an attribute uses…) but no option or record. Cheap at any size, so tests can check the size
 * targets of the 1M-option catalogue without materialising it.
 */
import { SELECT_ATTRIBUTE_TYPES } from "../../src/core/domain/pim-catalog.js";
import type { CatalogSize, CatalogSizeName, OptionCounts } from "./catalog-sizes.js";
import {
  CHANNEL_CODES,
  CHANNEL_CURRENCY_COUNTS,
  CHANNEL_LOCALE_COUNTS,
  CURRENCY_CODES,
  LOCALE_CODES,
  MEASUREMENT_FAMILIES,
  OTHER_ATTRIBUTE_TYPES,
  REFERENCE_ENTITY_CODES,
} from "./catalog-vocabulary.js";
import { createSeededRandom, type SeededRandom } from "./seeded-random.js";

export interface AttributePlan {
  readonly code: string;
  readonly type: string;
  readonly group: string;
  readonly localizable: boolean;
  readonly scopable: boolean;
  /** Options of a simple or multi select attribute; 0 for every other type. */
  readonly optionCount: number;
  readonly referenceEntity: string | null;
  readonly metricFamily: string | null;
}

export interface CatalogPlan {
  readonly size: CatalogSizeName;
  readonly seed: number;
  readonly locales: readonly { readonly code: string; readonly enabled: boolean }[];
  readonly currencies: readonly { readonly code: string; readonly enabled: boolean }[];
  readonly channels: readonly { readonly code: string; readonly locales: readonly string[]; readonly currencies: readonly string[] }[];
  /** Options and records carry labels in these locales. */
  readonly labelLocales: readonly string[];
  readonly attributes: readonly AttributePlan[];
  readonly families: readonly { readonly code: string; readonly attributes: readonly string[] }[];
  readonly referenceEntities: readonly { readonly code: string; readonly recordCount: number }[];
}

/** The family label attribute: every family needs a text attribute as label. */
export const LABEL_ATTRIBUTE = "name";
const IDENTIFIER_ATTRIBUTE = "sku";
const GROUPS = ["marketing", "technical", "logistics", "media", "erp"] as const;

export function planCatalog(size: CatalogSize, seed: number): CatalogPlan {
  if (size.attributes < 2) throw new RangeError("a catalogue needs at least the identifier and the label attribute");
  const random = createSeededRandom(seed);
  const enabled = LOCALE_CODES.slice(0, size.enabledLocales);
  const disabled = LOCALE_CODES.slice(size.enabledLocales, size.enabledLocales + size.disabledLocales);
  const currencyCodes = CURRENCY_CODES.slice(0, size.enabledCurrencies);
  const locales = [...enabled.map((code) => ({ code, enabled: true })), ...disabled.map((code) => ({ code, enabled: false }))];
  const currencies = [
    ...currencyCodes.map((code) => ({ code, enabled: true })),
    // One disabled currency: channels never list it, and the scope must leave it out.
    { code: CURRENCY_CODES[CURRENCY_CODES.length - 1] ?? "JPY", enabled: false },
  ];
  const channels = CHANNEL_CODES.slice(0, size.channels).map((code, index) => ({
    code,
    locales: firstOr(enabled, CHANNEL_LOCALE_COUNTS[index] ?? 0),
    currencies: firstOr(currencyCodes, CHANNEL_CURRENCY_COUNTS[index] ?? 0),
  }));
  const referenceEntities = REFERENCE_ENTITY_CODES.slice(0, size.referenceEntities.count).map((code) => ({
    code,
    recordCount: random.int(size.referenceEntities.minRecords, size.referenceEntities.maxRecords),
  }));

  const types = random.shuffle(attributeTypes(size, random));
  const selectIndexes = types.flatMap((type, index) => (isSelect(type) ? [index] : []));
  const optionCounts = drawOptionCounts(selectIndexes.length, size.options, random);
  const countByIndex = new Map(selectIndexes.map((index, at) => [index, optionCounts[at] ?? 0]));
  const width = String(size.attributes).length;

  const attributes: AttributePlan[] = [
    plainAttribute(IDENTIFIER_ATTRIBUTE, "pim_catalog_identifier", false),
    plainAttribute(LABEL_ATTRIBUTE, "pim_catalog_text", enabled.length > 1),
  ];
  types.forEach((type, index) => {
    attributes.push({
      code: `attr_${String(index).padStart(width, "0")}`,
      type,
      group: random.pick(GROUPS),
      localizable: random.chance(size.localizableShare),
      scopable: random.chance(size.scopableShare),
      optionCount: countByIndex.get(index) ?? 0,
      referenceEntity: isReferenceEntity(type) ? random.pick(referenceEntities).code : null,
      metricFamily: type === SELECT_ATTRIBUTE_TYPES.metric ? random.pick(MEASUREMENT_FAMILIES).code : null,
    });
  });

  const familyWidth = String(size.families).length;
  const families = Array.from({ length: size.families }, (_, index) => ({
    code: `family_${String(index).padStart(familyWidth, "0")}`,
    attributes: [
      IDENTIFIER_ATTRIBUTE,
      LABEL_ATTRIBUTE,
      ...attributes.slice(2).flatMap((attribute) => (random.chance(size.familyAttributeShare) ? [attribute.code] : [])),
    ],
  }));

  return {
    size: size.name,
    seed,
    locales,
    currencies,
    channels,
    labelLocales: enabled.slice(0, size.labelLocales),
    attributes,
    families,
    referenceEntities,
  };
}

/** Exact counts per type from the shares (rounded), the rest of the catalogue ignored types. */
function attributeTypes(size: CatalogSize, random: SeededRandom): string[] {
  const total = size.attributes - 2;
  const shares: [string, number][] = [
    [SELECT_ATTRIBUTE_TYPES.simpleSelect, size.types.simpleSelect],
    [SELECT_ATTRIBUTE_TYPES.multiSelect, size.types.multiSelect],
    [SELECT_ATTRIBUTE_TYPES.referenceEntity, size.types.referenceEntity],
    [SELECT_ATTRIBUTE_TYPES.referenceEntityCollection, size.types.referenceEntityCollection],
    [SELECT_ATTRIBUTE_TYPES.metric, size.types.metric],
    [SELECT_ATTRIBUTE_TYPES.priceCollection, size.types.priceCollection],
  ];
  const types: string[] = [];
  for (const [type, share] of shares) {
    // Shares are of the whole catalogue (identifier and label attribute included).
    const count = Math.round(share * size.attributes);
    for (let i = 0; i < count && types.length < total; i += 1) types.push(type);
  }
  if (size.referenceEntities.count === 0) {
    // No entity to point at: such attributes would be invalid, so they become ignored types.
    for (let i = 0; i < types.length; i += 1) if (isReferenceEntity(types[i] ?? "")) types[i] = "pim_catalog_text";
  }
  while (types.length < total) types.push(random.pick(OTHER_ATTRIBUTE_TYPES));
  return types;
}

/**
 * Option counts for `n` select attributes: `huge` of them long (at random positions), the rest
 * typical or long. With a target total the non-huge counts are scaled to reach it exactly, so the
 * option-heavy catalogue holds its million options whatever the seed.
 */
export function drawOptionCounts(n: number, spec: OptionCounts, random: SeededRandom): number[] {
  const hugeCount = Math.min(spec.huge, n);
  const hugePositions = new Set(random.shuffle(Array.from({ length: n }, (_, i) => i)).slice(0, hugeCount));
  const counts = Array.from({ length: n }, (_, i) => {
    if (hugePositions.has(i)) return random.int(spec.hugeMin, spec.hugeMax);
    return random.chance(spec.longShare) ? random.logInt(spec.longMin, spec.longMax) : random.logInt(spec.min, spec.max);
  });
  if (spec.targetTotal === undefined) return counts;
  const hugeSum = counts.reduce((sum, count, i) => (hugePositions.has(i) ? sum + count : sum), 0);
  const restSum = counts.reduce((sum, count, i) => (hugePositions.has(i) ? sum : sum + count), 0);
  const wanted = spec.targetTotal - hugeSum;
  if (restSum === 0 || wanted <= 0) return counts;
  const factor = wanted / restSum;
  let assigned = 0;
  let lastRest = -1;
  const scaled = counts.map((count, i) => {
    if (hugePositions.has(i)) return count;
    const value = Math.max(1, Math.floor(count * factor));
    assigned += value;
    lastRest = i;
    return value;
  });
  // Rounding leftovers go to the last typical attribute, so the total is exact.
  if (lastRest >= 0) scaled[lastRest] = Math.max(1, (scaled[lastRest] ?? 1) + wanted - assigned);
  return scaled;
}

function plainAttribute(code: string, type: string, localizable: boolean): AttributePlan {
  return { code, type, group: "general", localizable, scopable: false, optionCount: 0, referenceEntity: null, metricFamily: null };
}

function isSelect(type: string): boolean {
  return type === SELECT_ATTRIBUTE_TYPES.simpleSelect || type === SELECT_ATTRIBUTE_TYPES.multiSelect;
}

function isReferenceEntity(type: string): boolean {
  return type === SELECT_ATTRIBUTE_TYPES.referenceEntity || type === SELECT_ATTRIBUTE_TYPES.referenceEntityCollection;
}

/** The first `count` items, or all of them for 0 (and never none: a channel needs one). */
function firstOr<T>(items: readonly T[], count: number): T[] {
  return count === 0 ? [...items] : items.slice(0, Math.max(1, Math.min(count, items.length)));
}

/** Totals of a plan, for reports and size tests. */
export interface PlanSummary {
  readonly attributes: number;
  readonly selectAttributes: number;
  readonly options: number;
  readonly maxOptions: number;
  readonly attributesOver20k: number;
  readonly referenceEntityAttributes: number;
  readonly records: number;
  readonly localizable: number;
  readonly scopable: number;
}

export function summarizePlan(plan: CatalogPlan): PlanSummary {
  const selects = plan.attributes.filter((attribute) => isSelect(attribute.type));
  return {
    attributes: plan.attributes.length,
    selectAttributes: selects.length,
    options: selects.reduce((sum, attribute) => sum + attribute.optionCount, 0),
    maxOptions: selects.reduce((max, attribute) => Math.max(max, attribute.optionCount), 0),
    attributesOver20k: selects.filter((attribute) => attribute.optionCount >= 20_000).length,
    referenceEntityAttributes: plan.attributes.filter((attribute) => isReferenceEntity(attribute.type)).length,
    records: plan.referenceEntities.reduce((sum, entity) => sum + entity.recordCount, 0),
    localizable: plan.attributes.filter((attribute) => attribute.localizable).length,
    scopable: plan.attributes.filter((attribute) => attribute.scopable).length,
  };
}
