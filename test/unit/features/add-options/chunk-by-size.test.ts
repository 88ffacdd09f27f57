import { describe, expect, it } from "vitest";
import { chunkBySize } from "../../../../src/features/add-options/chunk-by-size.js";

describe("chunkBySize", () => {
  it("groups consecutive items up to the cap, in order", () => {
    expect(chunkBySize([3, 3, 3, 1, 4], (n) => n, 6)).toEqual([[3, 3], [3, 1], [4]]);
  });
  it("gives an item larger than the cap a group of its own, never splitting it", () => {
    expect(chunkBySize([2, 9, 2], (n) => n, 5)).toEqual([[2], [9], [2]]);
  });
  it("returns no group for no items", () => {
    expect(chunkBySize([], (n: number) => n, 5)).toEqual([]);
  });
});
