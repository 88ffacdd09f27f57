import { describe, expect, it } from "vitest";
import { CATALOG_SIZES } from "../../../bench/catalog/catalog-sizes.js";
import { deriveCatalog } from "../../../bench/catalog/derive-service-collections.js";
import { BENCH_PROJECT, generateCatalog, materializeCatalog } from "../../../bench/catalog/generate-catalog.js";
import { hashCatalog } from "../../../bench/catalog/hash-catalog.js";
import { planCatalog } from "../../../bench/catalog/plan-catalog.js";
import { parseSimCatalog } from "../../../sim/catalog/catalog-file.js";

describe("generateCatalog", () => {
  it("is deterministic: same seed, same catalogue hash; another seed, another hash", () => {
    const first = hashCatalog(generateCatalog("small", 1234));
    expect(hashCatalog(generateCatalog("small", 1234))).toBe(first);
    expect(hashCatalog(generateCatalog("small", 1235))).not.toBe(first);
  });

  it("produces exactly what the simulators' strict schema would parse it to", () => {
    const catalog = generateCatalog("small", 99);
    const parsed = parseSimCatalog(JSON.parse(JSON.stringify(catalog)) as unknown, "generated small");
    expect(parsed).toEqual(catalog);
  });

  it("lists in the service one collection for every derived collection, and nothing else", () => {
    const catalog = generateCatalog("small", 7);
    const derivedNames = deriveCatalog(catalog.pim).specs.map((spec) => spec.name);
    const serviceNames = catalog.service.collections.map((collection) => collection.name);
    expect(serviceNames).toEqual(derivedNames);
    expect(new Set(serviceNames).size).toBe(serviceNames.length);
    expect(catalog.service.collections.every((collection) => collection.project === BENCH_PROJECT && collection.options.length === 0)).toBe(
      true,
    );
    // Every kind of collection is there: select, reference entity, unit, currency.
    expect(new Set(deriveCatalog(catalog.pim).specs.map((spec) => spec.kind))).toEqual(
      new Set(["select", "reference-entity", "unit", "currency"]),
    );
  });

  it("materialises option and record lists in code order with the planned counts", () => {
    // The option-heavy shape scaled down (20k options in all instead of 1M) to stay fast.
    const spec = {
      ...CATALOG_SIZES["option-heavy"],
      options: { ...CATALOG_SIZES["option-heavy"].options, huge: 2, hugeMin: 2_000, hugeMax: 4_000, targetTotal: 20_000 },
    };
    const plan = planCatalog(spec, 3);
    const catalog = materializeCatalog(plan);
    let total = 0;
    for (const attribute of plan.attributes) {
      const options = catalog.pim.attribute_options[attribute.code] ?? [];
      expect(options.length).toBe(attribute.optionCount);
      total += options.length;
      const codes = options.map((option) => option.code);
      expect(codes).toEqual([...codes].sort());
    }
    expect(total).toBe(20_000);
    for (const entity of plan.referenceEntities) {
      const records = catalog.pim.reference_entity_records[entity.code] ?? [];
      expect(records.length).toBe(entity.recordCount);
      expect(records.map((record) => record.code)).toEqual(records.map((record) => record.code).sort());
    }
  });
});
