import { describe, expect, it } from "vitest";
import { familyGroupsByAttribute } from "../../../../src/core/derive/family-groups.js";
import { family } from "./catalog-builder.js";

describe("familyGroupsByAttribute", () => {
  const groupsOf = familyGroupsByAttribute([
    family("shoes", ["sku", "color", "size"]),
    family("bags", ["sku", "color"]),
    family("Accessories", ["COLOR"]),
    family("empty", []),
  ]);

  it.each([
    ["color", ["Accessories", "bags", "shoes"]],
    ["Color", ["Accessories", "bags", "shoes"]],
    ["size", ["shoes"]],
    ["sku", ["bags", "shoes"]],
    ["weight", []],
  ])("%s is in %j", (attributeCode, groups) => {
    expect(groupsOf(attributeCode)).toEqual(groups);
  });

  it("returns a fresh list each time", () => {
    const first = groupsOf("color");
    first.push("mutated");
    expect(groupsOf("color")).toEqual(["Accessories", "bags", "shoes"]);
  });

  it("has no groups without families", () => {
    expect(familyGroupsByAttribute([])("color")).toEqual([]);
  });
});
