import { describe, expect, it } from "vitest";
import { jsonPathText, nestedBeyond } from "../../../../src/core/json/nested-beyond.js";

describe("nestedBeyond", () => {
  it("counts the value itself as level 1, and only arrays and objects as levels", () => {
    expect(nestedBeyond("text", 0)).toBeNull();
    expect(nestedBeyond({}, 1)).toBeNull();
    expect(nestedBeyond({}, 0)).toEqual([]);
    expect(nestedBeyond({ a: [1, "x", null] }, 2)).toBeNull();
    expect(nestedBeyond({ a: [1, "x", null] }, 1)).toEqual(["a"]);
    expect(nestedBeyond({ a: [1, { b: {} }] }, 3)).toEqual(["a", 1, "b"]);
  });

  it("names the first member too deep in reading order", () => {
    expect(nestedBeyond({ flat: 1, first: { x: {} }, second: { y: {} } }, 2)).toEqual(["first", "x"]);
    expect(nestedBeyond([[], [[]], [[[]]]], 2)).toEqual([1, 0]);
  });

  it("walks a value nested far deeper than recursion could, and stops at the limit", () => {
    const depth = 300_000;
    const deep = JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`) as unknown;
    expect(nestedBeyond(deep, depth)).toBeNull();
    expect(nestedBeyond(deep, 32)).toEqual(Array.from({ length: 32 }, () => "a"));
  });

  it("shows the first parts of a long path", () => {
    expect(jsonPathText(["offers", 0, "a"])).toBe("offers.0.a");
    expect(jsonPathText(["offers", 0, "a", "b", "c", "d", "e"])).toBe("offers.0.a.b.c.d…");
  });
});
