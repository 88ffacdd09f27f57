import { describe, expect, it } from "vitest";
import { targetsLeftUnwritten } from "../../../../src/features/events/targets-left-unwritten.js";

describe("targetsLeftUnwritten: which pending targets a targeted run is done with", () => {
  const keys = ["a:color", "o:season:monsoon", "o:color:teal", "e:brands", "x:unknown"];

  it("settles every target when nothing was left unwritten", () => {
    expect(targetsLeftUnwritten(keys, [])).toEqual({ done: keys, retry: [], refused: [] });
  });

  it("keeps the targets of a collection a transient failure left unwritten, by attribute or by reference entity", () => {
    const result = targetsLeftUnwritten(keys, [
      { collection: "color", attribute: "Color", permanent: false },
      { collection: "brand", attribute: "brand", referenceEntity: "Brands", permanent: false },
    ]);
    expect(result).toEqual({ done: ["o:season:monsoon", "x:unknown"], retry: ["a:color", "o:color:teal", "e:brands"], refused: [] });
  });

  it("refuses a target whose every failure the upstream refused for good; one transient failure is enough to retry", () => {
    expect(targetsLeftUnwritten(["a:color"], [{ collection: "color", attribute: "color", permanent: true }]).refused).toEqual(["a:color"]);
    expect(
      targetsLeftUnwritten(
        ["a:color"],
        [
          { collection: "color", attribute: "color", permanent: true },
          { collection: "color-fr", attribute: "color", permanent: false },
        ],
      ).retry,
    ).toEqual(["a:color"]);
  });
});
