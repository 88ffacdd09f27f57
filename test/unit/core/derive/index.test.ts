import { describe, expect, it } from "vitest";
import * as derive from "../../../../src/core/derive/index.js";

describe("derive/index", () => {
  it("exports the public API and nothing internal", () => {
    expect(Object.keys(derive).sort()).toEqual([
      "DEFAULT_NAMING",
      "deriveCollectionSpecs",
      "optionsFromAttributeOptions",
      "optionsFromCurrencies",
      "optionsFromMeasurementFamily",
      "optionsFromRecords",
      "pimLocaleToServiceLocale",
      "renderName",
      "resolveProjectScope",
      "serviceLabelsEqual",
      "serviceLocaleToPimLocale",
      "toServiceLabels",
      "validateNamingTemplates",
    ]);
  });

  it("wires each name to a working implementation", () => {
    expect(derive.pimLocaleToServiceLocale("en_US")).toBe("en-US");
    expect(derive.renderName(derive.DEFAULT_NAMING.unit, { attribute: "w" })).toBe("w-unit");
  });
});
