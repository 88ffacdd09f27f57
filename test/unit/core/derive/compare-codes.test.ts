import { describe, expect, it } from "vitest";
import { compareCodes } from "../../../../src/core/derive/compare-codes.js";

describe("compareCodes", () => {
  it.each([
    ["a", "b", -1],
    ["b", "a", 1],
    ["a", "a", 0],
    ["B", "a", -1],
    ["a_b", "ab", -1],
    ["a", "aa", -1],
    ["", "a", -1],
  ])("compareCodes(%j, %j) has sign %i", (a, b, sign) => {
    expect(Math.sign(compareCodes(a, b))).toBe(sign);
  });

  it("sorts by code unit, not by the runtime's collation", () => {
    expect(["b", "B", "a", "A", "_", "1"].sort(compareCodes)).toEqual(["1", "A", "B", "_", "a", "b"]);
  });
});
