import { describe, expect, it } from "vitest";
import type { AttributeSpecsContext } from "../../../../src/core/derive/attribute-specs.js";
import { attributeSpecs, LEGACY_REFERENCE_DATA_REASON } from "../../../../src/core/derive/attribute-specs.js";
import { DEFAULT_NAMING } from "../../../../src/core/derive/naming.js";
import { attribute, channel, measurementFamily, scope } from "./catalog-builder.js";

const weight = measurementFamily("Weight", ["GRAM"]);
const context: AttributeSpecsContext = {
  scope: scope({ channels: [channel("web", ["en_US"])], locales: ["en_US"] }),
  naming: DEFAULT_NAMING,
  measurementFamilies: new Map([["weight", weight]]),
};

describe("attributeSpecs", () => {
  it.each([
    ["pim_catalog_simpleselect", {}, "specs"],
    ["pim_catalog_multiselect", {}, "specs"],
    ["akeneo_reference_entity", { referenceDataName: "brands" }, "specs"],
    ["akeneo_reference_entity_collection", { referenceDataName: "brands" }, "specs"],
    ["akeneo_reference_entity", {}, "problem"],
    ["pim_catalog_metric", { metricFamily: "weight" }, "specs"],
    ["pim_catalog_metric", { metricFamily: "volume" }, "problem"],
    ["pim_catalog_metric", {}, "problem"],
    ["pim_catalog_price_collection", {}, "specs"],
    ["pim_reference_data_simpleselect", {}, "unsupported"],
    ["pim_reference_data_multiselect", {}, "unsupported"],
    ["pim_catalog_text", {}, "ignored"],
    ["pim_catalog_identifier", {}, "ignored"],
  ])("%s with %j → %s", (type, overrides, outcome) => {
    expect(attributeSpecs(attribute("a", type, overrides), context).outcome).toBe(outcome);
  });

  it("gives the legacy reference data reason", () => {
    expect(attributeSpecs(attribute("a", "pim_reference_data_simpleselect"), context)).toEqual({
      outcome: "unsupported",
      reason: LEGACY_REFERENCE_DATA_REASON,
    });
  });

  it("trims the reference entity code it uses as a source", () => {
    expect(attributeSpecs(attribute("a", "akeneo_reference_entity", { referenceDataName: " brands " }), context)).toEqual({
      outcome: "specs",
      specs: [
        {
          name: "a",
          attribute: "a",
          kind: "reference-entity",
          locale: null,
          channel: null,
          source: { kind: "reference-entity-records", referenceEntity: "brands" },
        },
      ],
    });
  });

  it("throws on a template that was not validated", () => {
    const broken = { ...context, naming: { ...DEFAULT_NAMING, select: "{attribute}-{locale}" } };
    expect(() => attributeSpecs(attribute("a", "pim_catalog_simpleselect"), broken)).toThrow("no locale");
  });
});
