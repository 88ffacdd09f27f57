import { describe, expect, it } from "vitest";
import { serviceLabelsEqual, toServiceLabels } from "../../../../src/core/derive/labels.js";

const project = new Set(["en_US", "fr_FR", "zh_Hant_TW"]);

describe("toServiceLabels", () => {
  it.each([
    ["converts project locale keys", { en_US: "Red", fr_FR: "Rouge" }, { "en-US": "Red", "fr-FR": "Rouge" }],
    ["converts script subtags", { zh_Hant_TW: "紅" }, { "zh-Hant-TW": "紅" }],
    ["drops null", { en_US: null, fr_FR: "Rouge" }, { "fr-FR": "Rouge" }],
    ["drops empty strings", { en_US: "", fr_FR: "Rouge" }, { "fr-FR": "Rouge" }],
    ["drops blanks", { en_US: "   ", fr_FR: "\t\n", zh_Hant_TW: "\u00a0" }, {}],
    ["drops locales outside the project", { en_US: "Red", de_DE: "Rot" }, { "en-US": "Red" }],
    ["matches project locales exactly", { en_us: "Red", "en-US": "Red" }, {}],
    ["keeps text verbatim", { en_US: "  Red  " }, { "en-US": "  Red  " }],
    ["returns nothing for no labels", {}, {}],
  ])("%s", (_case, labels, expected) => {
    expect(toServiceLabels(labels, project)).toEqual(expected);
  });

  it("returns nothing when the project has no locales", () => {
    expect(toServiceLabels({ en_US: "Red" }, new Set())).toEqual({});
  });

  it("sorts output keys whatever the input order", () => {
    const labels = toServiceLabels({ zh_Hant_TW: "紅", fr_FR: "Rouge", en_US: "Red" }, project);
    expect(Object.keys(labels)).toEqual(["en-US", "fr-FR", "zh-Hant-TW"]);
  });

  it("keeps one label when two PIM keys canonicalise to the same service key", () => {
    const labels = toServiceLabels({ en_us: "lower", en_US: "upper" }, new Set(["en_US", "en_us"]));
    expect(labels).toEqual({ "en-US": "upper" });
  });

  it("throws naming a project locale the service cannot represent", () => {
    expect(() => toServiceLabels({ "en US": "Red" }, new Set(["en US"]))).toThrow("'en US'");
  });
});

describe("serviceLabelsEqual", () => {
  it.each([
    ["both empty", {}, {}, true],
    ["same keys and values", { "en-US": "Red" }, { "en-US": "Red" }, true],
    ["different key order", { "en-US": "Red", "fr-FR": "Rouge" }, { "fr-FR": "Rouge", "en-US": "Red" }, true],
    ["different value", { "en-US": "Red" }, { "en-US": "red" }, false],
    ["extra key on the right", { "en-US": "Red" }, { "en-US": "Red", "fr-FR": "Rouge" }, false],
    ["extra key on the left", { "en-US": "Red", "fr-FR": "Rouge" }, { "en-US": "Red" }, false],
    ["same size, different keys", { "en-US": "Red" }, { "en-GB": "Red" }, false],
    ["empty against non-empty", {}, { "en-US": "Red" }, false],
  ])("%s → %s", (_case, a, b, equal) => {
    expect(serviceLabelsEqual(a, b)).toBe(equal);
    expect(serviceLabelsEqual(b, a)).toBe(equal);
  });

  it("does not mistake an inherited property for a label", () => {
    expect(serviceLabelsEqual({ toString: "x" }, { valueOf: "x" })).toBe(false);
    expect(serviceLabelsEqual({ constructor: "x" }, { other: "x" })).toBe(false);
  });
});
