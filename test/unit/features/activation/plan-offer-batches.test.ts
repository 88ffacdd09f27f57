import { describe, expect, it } from "vitest";
import { contentHash } from "../../../../src/core/json/canonical-json.js";
import { OfferKeyError } from "../../../../src/features/activation/offer-key.js";
import { keyOffers, planOfferBatches } from "../../../../src/features/activation/plan-offer-batches.js";

const offers = (count: number): Record<string, unknown>[] => Array.from({ length: count }, (_, i) => ({ sku: `S${i}`, stock: i }));
const keyed = (list: readonly unknown[]) => keyOffers(list, "sku");

describe("planOfferBatches", () => {
  it("cuts offers into batches of at most batchSize, in input order", () => {
    const plan = planOfferBatches(keyed(offers(5)), new Map(), { batchSize: 2, force: false });
    expect(plan.batches.map((b) => b.offers.map((o) => (o as { sku: string }).sku))).toEqual([["S0", "S1"], ["S2", "S3"], ["S4"]]);
    expect(plan.batches[0]?.accepted).toEqual([
      { key: "S0", hash: contentHash({ sku: "S0", stock: 0 }) },
      { key: "S1", hash: contentHash({ sku: "S1", stock: 1 }) },
    ]);
    expect(plan.skipped).toBe(0);
  });

  it("skips an offer whose content is the one last accepted for its key (key order does not matter)", () => {
    const last = new Map([["S1", contentHash({ stock: 1, sku: "S1" })]]);
    const plan = planOfferBatches(keyed(offers(3)), last, { batchSize: 10, force: false });
    expect(plan.batches.flatMap((b) => b.offers)).toEqual([offers(3)[0], offers(3)[2]]);
    expect(plan.skipped).toBe(1);
  });

  it("sends an offer that went back to an earlier content: only the last accepted content counts", () => {
    const last = new Map([["S1", contentHash({ sku: "S1", stock: 0 })]]);
    const plan = planOfferBatches(keyed([{ sku: "S1", stock: 5 }]), last, { batchSize: 10, force: false });
    expect(plan.batches.flatMap((b) => b.offers)).toEqual([{ sku: "S1", stock: 5 }]);
  });

  it("sends accepted offers again with force", () => {
    const last = new Map(offers(3).map((o) => [String(o.sku), contentHash(o)]));
    const plan = planOfferBatches(keyed(offers(3)), last, { batchSize: 10, force: true });
    expect(plan.batches.flatMap((b) => b.offers)).toHaveLength(3);
    expect(plan.skipped).toBe(0);
  });

  it("sends a repeat of an offer in the same input once, but a later change of the same key too", () => {
    const plan = planOfferBatches(keyed([{ sku: "A" }, { sku: "A" }, { sku: "A", stock: 1 }]), new Map(), { batchSize: 10, force: true });
    expect(plan.batches.flatMap((b) => b.offers)).toEqual([{ sku: "A" }, { sku: "A", stock: 1 }]);
    expect(plan.skipped).toBe(1);
  });

  it("plans no batch when everything is skipped or there is nothing", () => {
    expect(planOfferBatches([], new Map(), { batchSize: 10, force: false }).batches).toEqual([]);
    expect(
      planOfferBatches(keyed(offers(2)), new Map(offers(2).map((o) => [String(o.sku), contentHash(o)])), { batchSize: 10, force: false })
        .batches,
    ).toEqual([]);
  });

  it("refuses offers without a key, naming each by position (nothing is planned)", () => {
    const error = (() => {
      try {
        keyed([{ sku: "A" }, { stock: 1 }, { sku: "" }, { sku: 7 }]);
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(OfferKeyError);
    expect((error as OfferKeyError).positions).toEqual([2, 3]);
    expect((error as Error).message).toContain("offers.key 'sku'");
  });
});
