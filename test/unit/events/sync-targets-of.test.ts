import { describe, expect, it } from "vitest";
import { targetKey } from "../../../src/events/event-target.js";
import { syncTargetsOf } from "../../../src/events/sync-targets-of.js";

const option = (attribute: string, code: string): string => targetKey({ kind: "option", attribute, code });

describe("syncTargetsOf", () => {
  it("reads options alone up to the limit, the whole list above it", () => {
    const keys = [option("color", "red"), option("color", "teal"), option("size", "s"), option("size", "m"), option("size", "l")];
    expect(syncTargetsOf(keys, 2)).toEqual({
      attributes: ["size"],
      referenceEntities: [],
      options: [{ attribute: "color", codes: ["red", "teal"] }],
    });
    expect(syncTargetsOf(keys, 3).options).toEqual([
      { attribute: "color", codes: ["red", "teal"] },
      { attribute: "size", codes: ["l", "m", "s"] },
    ]);
  });

  it("an attribute event makes its options part of the whole list", () => {
    const keys = [
      option("color", "red"),
      targetKey({ kind: "attribute", code: "color" }),
      targetKey({ kind: "reference-entity", code: "brand" }),
    ];
    expect(syncTargetsOf(keys, 20)).toEqual({ attributes: ["color"], referenceEntities: ["brand"], options: [] });
  });

  it("a limit of 0 always reads whole lists", () => {
    expect(syncTargetsOf([option("color", "red")], 0)).toEqual({ attributes: ["color"], referenceEntities: [], options: [] });
  });

  it("leaves out fields it does not know", () => {
    expect(syncTargetsOf(["z:what", "o:color"], 20)).toEqual({ attributes: [], referenceEntities: [], options: [] });
  });
});
