import { describe, expect, it } from "vitest";
import { compareReadingOrder, type SourceSize } from "../../../../src/features/sync/reading-order.js";

const counted = (items: number): SourceSize => ({ kind: "counted", items });
const UNKNOWN: SourceSize = { kind: "unknown" };
const NO_READ: SourceSize = { kind: "no-read" };

describe("compareReadingOrder", () => {
  it("puts sources with nothing to read first, lists without a count next, then counted lists largest first", () => {
    const sizes = [counted(120), UNKNOWN, counted(40_000), NO_READ, counted(3), counted(2_500)];

    expect([...sizes].sort(compareReadingOrder)).toEqual([NO_READ, UNKNOWN, counted(40_000), counted(2_500), counted(120), counted(3)]);
  });

  it("keeps the given order between equals (a stable sort keeps catalogue order)", () => {
    const sizes = [
      { name: "a", size: counted(100) },
      { name: "b", size: UNKNOWN },
      { name: "c", size: counted(100) },
      { name: "d", size: UNKNOWN },
    ];

    expect([...sizes].sort((x, y) => compareReadingOrder(x.size, y.size)).map((s) => s.name)).toEqual(["b", "d", "a", "c"]);
  });
});
