import { describe, expect, it } from "vitest";
import { readsOptionsAlone } from "../../../../src/features/sync/reads-options-alone.js";

describe("readsOptionsAlone", () => {
  it.each([
    { named: 1, largest: 83, alone: false, why: "a one-page list costs no more than one single read (a tie reads the list)" },
    { named: 1, largest: 101, alone: true, why: "two pages against one single read" },
    { named: 10, largest: 709, alone: false, why: "10 single reads against 8 pages" },
    { named: 10, largest: 46_348, alone: true, why: "10 single reads against 464 pages" },
    { named: 8, largest: 800, alone: false, why: "a tie: 8 single reads, 8 full pages" },
    { named: 7, largest: 701, alone: true, why: "a page started counts whole: 8 pages" },
    { named: 1, largest: 0, alone: false, why: "an empty list is still one page" },
  ])("$named named option(s), largest state $largest: alone $alone ($why)", ({ named, largest, alone }) => {
    expect(readsOptionsAlone(named, largest)).toBe(alone);
  });

  it("counts pages of the given size", () => {
    expect(readsOptionsAlone(2, 30, 10)).toBe(true);
    expect(readsOptionsAlone(3, 30, 10)).toBe(false);
  });
});
