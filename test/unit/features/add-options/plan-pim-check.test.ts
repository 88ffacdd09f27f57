import { describe, expect, it } from "vitest";
import { planPimCheck } from "../../../../src/features/add-options/plan-pim-check.js";

describe("planPimCheck", () => {
  it("reads the list when its pages are no more than the names to GET", () => {
    expect(planPimCheck(50, 300)).toBe("list"); // 3 pages vs 50 GETs
    expect(planPimCheck(3, 300)).toBe("list"); // a tie: one consistent answer
    expect(planPimCheck(10, 0)).toBe("list"); // an empty list is one page
  });
  it("GETs the names when the list is longer", () => {
    expect(planPimCheck(2, 300)).toBe("get");
    expect(planPimCheck(50, 40_000)).toBe("get");
  });
});
