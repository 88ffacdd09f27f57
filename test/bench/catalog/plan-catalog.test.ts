import { describe, expect, it } from "vitest";
import { CATALOG_SIZE_NAMES, CATALOG_SIZES, type OptionCounts } from "../../../bench/catalog/catalog-sizes.js";
import { drawOptionCounts, planCatalog, summarizePlan } from "../../../bench/catalog/plan-catalog.js";
import { createSeededRandom } from "../../../bench/catalog/seeded-random.js";

const SEEDS = [20261122, 1, 987654321];

describe("planCatalog size targets (counted without materialising)", () => {
  it.each(CATALOG_SIZE_NAMES)("%s has its attribute count and about 30 %% select attributes", (name) => {
    for (const seed of SEEDS) {
      const summary = summarizePlan(planCatalog(CATALOG_SIZES[name], seed));
      expect(summary.attributes).toBe(CATALOG_SIZES[name].attributes);
      expect(summary.selectAttributes / summary.attributes).toBeCloseTo(0.3, 2);
    }
  });

  it("small, medium and large have 100, 400 and 1,000 attributes", () => {
    expect(CATALOG_SIZES.small.attributes).toBe(100);
    expect(CATALOG_SIZES.medium.attributes).toBe(400);
    expect(CATALOG_SIZES.large.attributes).toBe(1_000);
  });

  it("large: 4 locales, 3 channels, ~20 % localizable, ~5 % scopable, reference entities with thousands of records", () => {
    for (const seed of SEEDS) {
      const plan = planCatalog(CATALOG_SIZES.large, seed);
      const summary = summarizePlan(plan);
      expect(plan.locales.filter((locale) => locale.enabled)).toHaveLength(4);
      expect(plan.channels).toHaveLength(3);
      expect(summary.localizable / summary.attributes).toBeGreaterThan(0.16);
      expect(summary.localizable / summary.attributes).toBeLessThan(0.24);
      expect(summary.scopable / summary.attributes).toBeGreaterThan(0.03);
      expect(summary.scopable / summary.attributes).toBeLessThan(0.07);
      expect(plan.referenceEntities.length).toBeGreaterThan(0);
      for (const entity of plan.referenceEntities) expect(entity.recordCount).toBeGreaterThanOrEqual(2_000);
    }
  });

  it("option-heavy: one million options in all, and attributes of 20,000+ options", () => {
    for (const seed of SEEDS) {
      const summary = summarizePlan(planCatalog(CATALOG_SIZES["option-heavy"], seed));
      expect(summary.options).toBe(1_000_000);
      expect(summary.attributesOver20k).toBeGreaterThanOrEqual(10);
      expect(summary.maxOptions).toBeGreaterThanOrEqual(20_000);
    }
  });

  it("is deterministic", () => {
    expect(planCatalog(CATALOG_SIZES.large, 5)).toEqual(planCatalog(CATALOG_SIZES.large, 5));
    expect(planCatalog(CATALOG_SIZES.large, 5)).not.toEqual(planCatalog(CATALOG_SIZES.large, 6));
  });

  it("points every reference-entity and metric attribute at something that exists", () => {
    const plan = planCatalog(CATALOG_SIZES.medium, 11);
    const entities = new Set(plan.referenceEntities.map((entity) => entity.code));
    for (const attribute of plan.attributes) {
      if (attribute.type.startsWith("akeneo_reference_entity")) expect(entities.has(attribute.referenceEntity ?? "")).toBe(true);
      if (attribute.type === "pim_catalog_metric") expect(attribute.metricFamily).not.toBeNull();
    }
  });
});

describe("drawOptionCounts", () => {
  const spec: OptionCounts = {
    min: 5,
    max: 500,
    longShare: 0,
    longMin: 1,
    longMax: 1,
    huge: 3,
    hugeMin: 2_000,
    hugeMax: 3_000,
    targetTotal: 12_345,
  };

  it("hits a target total exactly, keeping the huge lists as drawn", () => {
    const counts = drawOptionCounts(40, spec, createSeededRandom(2));
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(12_345);
    expect(counts.filter((count) => count >= 2_000)).toHaveLength(3);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(1);
  });

  it("without a target draws within the ranges", () => {
    const counts = drawOptionCounts(200, { ...spec, huge: 0, targetTotal: undefined }, createSeededRandom(3));
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...counts)).toBeLessThanOrEqual(500);
  });
});
