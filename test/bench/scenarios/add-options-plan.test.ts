import { describe, expect, it } from "vitest";
import { deriveCatalog } from "../../../bench/catalog/derive-service-collections.js";
import { BENCH_PROJECT, generateCatalog } from "../../../bench/catalog/generate-catalog.js";
import {
  addOptionsFloor,
  addOptionsJobs,
  addOptionsMinimal,
  mergedAdditionsFloor,
  pimCheckRequests,
  pickAddOptionsTargets,
  type AddOptionsTarget,
  type AttributeFacts,
} from "../../../bench/scenarios/add-options-plan.js";
import type { CollectionSpec } from "../../../src/core/domain/option-collection.js";
import { parseJobData } from "../../../src/jobs/catalog/job-catalog.js";

const SIMPLE = "pim_catalog_simpleselect";
const MULTI = "pim_catalog_multiselect";

function attribute(code: string, type = SIMPLE): AttributeFacts {
  return { code, type, localizable: false, scopable: false };
}

function specs(
  attributeCode: string,
  names: readonly string[],
  kind: CollectionSpec["kind"] = "select",
): Pick<CollectionSpec, "name" | "attribute" | "kind">[] {
  return names.map((name) => ({ name, attribute: attributeCode, kind }));
}

describe("pickAddOptionsTargets", () => {
  it("takes single-collection select attributes first, in catalogue order, up to the count", () => {
    const attributes = [attribute("b"), attribute("loc"), attribute("a", MULTI), attribute("c"), attribute("d")];
    const all = [
      ...specs("b", ["b"]),
      ...specs("loc", ["loc-en_US", "loc-fr_FR"]),
      ...specs("a", ["a"]),
      ...specs("c", ["c"]),
      ...specs("d", ["d"]),
    ];
    expect(pickAddOptionsTargets(all, attributes, 3)).toEqual([
      { attribute: "b", type: SIMPLE, collections: ["b"] },
      { attribute: "a", type: MULTI, collections: ["a"] },
      { attribute: "c", type: SIMPLE, collections: ["c"] },
    ]);
  });

  it("makes up the count with multi-collection attributes, exactly when it can, never overshooting", () => {
    const attributes = [attribute("four"), attribute("one"), attribute("two"), attribute("three")];
    const all = [
      ...specs("four", ["four-1", "four-2", "four-3", "four-4"]),
      ...specs("one", ["one"]),
      ...specs("two", ["two-1", "two-2"]),
      ...specs("three", ["three-1", "three-2", "three-3"]),
    ];
    const total = (targets: readonly AddOptionsTarget[]): number => targets.reduce((sum, target) => sum + target.collections.length, 0);
    // 7 = 1 + 2 + 4 (a greedy 1 + 2 + 3 would stop at 6).
    expect(pickAddOptionsTargets(all, attributes, 7).map((target) => target.attribute)).toEqual(["one", "two", "four"]);
    // 3 = 1 + 2: the single one first, then the fewest collections.
    expect(pickAddOptionsTargets(all, attributes, 3).map((target) => target.attribute)).toEqual(["one", "two"]);
    expect(total(pickAddOptionsTargets(all, attributes, 10))).toBe(10);
    // More than the catalogue has: everything.
    expect(total(pickAddOptionsTargets(all, attributes, 20))).toBe(10);
    // 2 cannot be made from a 3-collection attribute: nothing, rather than too many.
    expect(pickAddOptionsTargets(specs("three", ["three-1", "three-2", "three-3"]), [attribute("three")], 2)).toEqual([]);
  });

  it("leaves out attributes that are not simple or multi selects, and collections of other kinds", () => {
    const attributes = [attribute("designer", "akeneo_reference_entity"), attribute("weight", "pim_catalog_metric"), attribute("color")];
    const all = [
      ...specs("designer", ["designer"], "reference-entity"),
      ...specs("weight", ["weight-unit"], "unit"),
      ...specs("color", ["color"]),
    ];
    expect(pickAddOptionsTargets(all, attributes, 20).map((target) => target.attribute)).toEqual(["color"]);
  });

  it("finds 20 single-collection select attributes in the small catalogue", () => {
    const pim = generateCatalog("small").pim;
    const picked = pickAddOptionsTargets(deriveCatalog(pim).specs, pim.attributes);
    expect(picked).toHaveLength(20);
    for (const target of picked) {
      const facts = pim.attributes.find((candidate) => candidate.code === target.attribute);
      expect(facts).toMatchObject({ localizable: false, scopable: false });
      expect([SIMPLE, MULTI]).toContain(facts?.type);
      expect(target.collections).toEqual([target.attribute]);
    }
  });
});

describe("addOptionsJobs", () => {
  const targets: AddOptionsTarget[] = Array.from({ length: 20 }, (_, i) => ({
    attribute: `attr_${i}`,
    type: SIMPLE,
    collections: [`attr_${i}`],
  }));

  it("deals 1,000 one-option jobs round-robin: 50 per attribute, unique codes, valid job data", () => {
    const jobs = addOptionsJobs(BENCH_PROJECT, targets, "en_US");
    expect(jobs).toHaveLength(1000);
    expect(jobs[0]?.attribute).toBe("attr_0");
    expect(jobs[1]?.attribute).toBe("attr_1");
    expect(jobs[20]?.attribute).toBe("attr_0");
    const perAttribute = new Map<string, number>();
    for (const job of jobs) perAttribute.set(job.attribute, (perAttribute.get(job.attribute) ?? 0) + 1);
    expect([...perAttribute.values()].every((count) => count === 50)).toBe(true);
    expect(new Set(jobs.map((job) => job.options[0]?.name)).size).toBe(1000);
    const parsed = parseJobData("options.add", jobs[7]);
    expect(parsed).toMatchObject({
      project: BENCH_PROJECT,
      attribute: "attr_7",
      options: [{ name: "bench_add_7", label: { "en-US": "Bench addition 7" } }],
    });
  });

  it("needs at least one target", () => {
    expect(() => addOptionsJobs(BENCH_PROJECT, [], "en_US")).toThrow(/no attribute/);
  });
});

describe("add-options floor", () => {
  const targets: AddOptionsTarget[] = [
    ...Array.from({ length: 18 }, (_, i) => ({ attribute: `attr_${i}`, type: SIMPLE, collections: [`attr_${i}`] })),
    { attribute: "loc", type: SIMPLE, collections: ["loc-en_US", "loc-fr_FR"] },
  ];

  it("counts one add-options call per job and collection, two PIM GETs per option", () => {
    const jobs = addOptionsJobs(BENCH_PROJECT, targets, "en_US", 190);
    // 190 jobs over 19 attributes: 10 each; "loc" has 2 collections.
    expect(addOptionsMinimal(jobs, targets)).toEqual({ service: 180 + 20, pim: 380 });
  });

  it("is 100 s for 1,000 additions at the service's 10 req/s, the PIM's 2,000 GETs taking 20 s", () => {
    expect(addOptionsFloor({ service: 1000, pim: 2000 }, 20)).toEqual({
      pimSeconds: 20,
      serviceSeconds: 100,
      seconds: 100,
      boundBy: "service",
    });
  });

  it("is 2 s merged: one call per collection, and per attribute one list read before and after instead of 100 GETs", () => {
    const single: AddOptionsTarget[] = Array.from({ length: 20 }, (_, i) => ({
      attribute: `attr_${i}`,
      type: SIMPLE,
      collections: [`attr_${i}`],
    }));
    const jobs = addOptionsJobs(BENCH_PROJECT, single, "en_US", 1000);
    // 50 additions per attribute of 120 options: count + 2 pages before, count + 2 pages after.
    const counts = new Map(single.map((t) => [t.attribute, 120] as const));
    expect(mergedAdditionsFloor(jobs, single, counts, 20)).toEqual({ pimSeconds: 1.2, serviceSeconds: 2, seconds: 2, boundBy: "service" });
  });

  it("GETs the options of an attribute whose list is longer than the names to check", () => {
    expect(pimCheckRequests(3, 40_000)).toBe(3);
    expect(pimCheckRequests(50, 120)).toBe(3);
    expect(pimCheckRequests(50, 0)).toBe(2);
  });
});
