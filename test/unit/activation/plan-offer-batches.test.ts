import { describe, expect, it } from "vitest";
import { contentHash } from "../../../src/activation/canonical-json.js";
import { planOfferBatches } from "../../../src/activation/plan-offer-batches.js";

const offers = (count: number): Record<string, unknown>[] => Array.from({ length: count }, (_, i) => ({ sku: `S${i}`, stock: i }));

describe("planOfferBatches", () => {
  it("cuts offers into batches of at most batchSize, in input order", () => {
    const plan = planOfferBatches(offers(5), new Set(), { batchSize: 2, force: false });
    expect(plan.batches.map((b) => b.offers.map((o) => (o as { sku: string }).sku))).toEqual([["S0", "S1"], ["S2", "S3"], ["S4"]]);
    expect(plan.batches[0]?.hashes).toEqual([contentHash({ sku: "S0", stock: 0 }), contentHash({ sku: "S1", stock: 1 })]);
    expect(plan.skipped).toBe(0);
  });

  it("skips offers already accepted (canonical JSON: key order does not matter)", () => {
    const accepted = new Set([contentHash({ stock: 1, sku: "S1" })]);
    const plan = planOfferBatches(offers(3), accepted, { batchSize: 10, force: false });
    expect(plan.batches.flatMap((b) => b.offers)).toEqual([offers(3)[0], offers(3)[2]]);
    expect(plan.skipped).toBe(1);
  });

  it("sends accepted offers again with force", () => {
    const accepted = new Set(offers(3).map((o) => contentHash(o)));
    const plan = planOfferBatches(offers(3), accepted, { batchSize: 10, force: true });
    expect(plan.batches.flatMap((b) => b.offers)).toHaveLength(3);
    expect(plan.skipped).toBe(0);
  });

  it("sends a repeat of an offer in the same input once", () => {
    const plan = planOfferBatches([{ sku: "A" }, { sku: "A" }], new Set(), { batchSize: 10, force: true });
    expect(plan.batches.flatMap((b) => b.offers)).toEqual([{ sku: "A" }]);
    expect(plan.skipped).toBe(1);
  });

  it("plans no batch when everything is skipped or there is nothing", () => {
    expect(planOfferBatches([], new Set(), { batchSize: 10, force: false }).batches).toEqual([]);
    expect(planOfferBatches(offers(2), new Set(offers(2).map((o) => contentHash(o))), { batchSize: 10, force: false }).batches).toEqual([]);
  });
});
