import { describe, expect, it } from "vitest";
import { targetKey } from "../../../../src/features/events/event-target.js";
import { syncTargetsOf } from "../../../../src/features/events/sync-targets-of.js";

const option = (attribute: string, code: string): string => targetKey({ kind: "option", attribute, code });

describe("syncTargetsOf", () => {
  it("names every pending option of an attribute, however many (the sync chooses how to read them)", () => {
    const keys = [option("size", "s"), option("color", "red"), option("color", "teal"), option("size", "m"), option("size", "l")];
    expect(syncTargetsOf(keys)).toEqual({
      attributes: [],
      referenceEntities: [],
      options: [
        { attribute: "color", codes: ["red", "teal"] },
        { attribute: "size", codes: ["l", "m", "s"] },
      ],
    });
  });

  it("an attribute event makes its options part of the whole list", () => {
    const keys = [
      option("color", "red"),
      targetKey({ kind: "attribute", code: "color" }),
      targetKey({ kind: "reference-entity", code: "brand" }),
    ];
    expect(syncTargetsOf(keys)).toEqual({ attributes: ["color"], referenceEntities: ["brand"], options: [] });
  });

  it("leaves out fields it does not know", () => {
    expect(syncTargetsOf(["z:what", "o:color"])).toEqual({ attributes: [], referenceEntities: [], options: [] });
  });
});
