import { describe, expect, it } from "vitest";
import { firstByCode } from "../../../../src/core/derive/first-by-code.js";

describe("firstByCode", () => {
  const byCode = (item: { code: string }) => item.code;

  it("keeps input order when codes are distinct", () => {
    const items = [{ code: "b" }, { code: "a" }, { code: "c" }];
    expect(firstByCode(items, byCode)).toEqual(items);
  });

  it("keeps the first of case-insensitive duplicates, in place", () => {
    const first = { code: "Red", n: 1 };
    const result = firstByCode([first, { code: "blue", n: 2 }, { code: "RED", n: 3 }, { code: "red", n: 4 }], byCode);
    expect(result).toEqual([first, { code: "blue", n: 2 }]);
    expect(result[0]).toBe(first);
  });

  it("returns an empty list for no items", () => {
    expect(firstByCode([], byCode)).toEqual([]);
  });

  it("does not modify its input", () => {
    const items = [{ code: "a" }, { code: "A" }];
    firstByCode(items, byCode);
    expect(items).toHaveLength(2);
  });
});
