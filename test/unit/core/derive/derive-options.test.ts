import { describe, expect, it } from "vitest";
import {
  optionsFromAttributeOptions,
  optionsFromCurrencies,
  optionsFromMeasurementFamily,
  optionsFromRecords,
} from "../../../../src/core/derive/derive-options.js";

const project = new Set(["en_US", "fr_FR"]);

describe.each([
  ["optionsFromAttributeOptions", optionsFromAttributeOptions],
  ["optionsFromRecords", optionsFromRecords],
] as const)("%s", (_name, derive) => {
  it("names options by code and converts their labels", () => {
    expect(
      derive(
        [
          { code: "red", labels: { en_US: "Red", fr_FR: "Rouge", de_DE: "Rot" } },
          { code: "blue", labels: { en_US: "Blue", fr_FR: null } },
        ],
        project,
      ),
    ).toEqual([
      { name: "red", label: { "en-US": "Red", "fr-FR": "Rouge" } },
      { name: "blue", label: { "en-US": "Blue" } },
    ]);
  });

  it("keeps input order", () => {
    const codes = ["zeta", "alpha", "Mid", "beta"];
    expect(
      derive(
        codes.map((code) => ({ code, labels: {} })),
        project,
      ).map((o) => o.name),
    ).toEqual(codes);
  });

  it("keeps an option with no usable label, with empty labels", () => {
    expect(derive([{ code: "plain", labels: { en_US: " ", fr_FR: "", de_DE: "x" } }], project)).toEqual([{ name: "plain", label: {} }]);
  });

  it("keeps the first of codes that differ only in case, with its labels and casing", () => {
    expect(
      derive(
        [
          { code: "Red", labels: { en_US: "first" } },
          { code: "blue", labels: {} },
          { code: "red", labels: { en_US: "second" } },
          { code: "RED", labels: { en_US: "third" } },
        ],
        project,
      ),
    ).toEqual([
      { name: "Red", label: { "en-US": "first" } },
      { name: "blue", label: {} },
    ]);
  });

  it("gives no options for no input", () => {
    expect(derive([], project)).toEqual([]);
  });
});

describe("optionsFromMeasurementFamily", () => {
  it("gives one option per unit, in the family's order", () => {
    expect(
      optionsFromMeasurementFamily(
        {
          code: "Weight",
          units: [
            { code: "KILOGRAM", labels: { en_US: "Kilogram", fr_FR: "Kilogramme" } },
            { code: "GRAM", labels: { en_US: "Gram", it_IT: "Grammo" } },
            { code: "gram", labels: { en_US: "duplicate" } },
          ],
        },
        project,
      ),
    ).toEqual([
      { name: "KILOGRAM", label: { "en-US": "Kilogram", "fr-FR": "Kilogramme" } },
      { name: "GRAM", label: { "en-US": "Gram" } },
    ]);
  });

  it("gives no options for a family without units", () => {
    expect(optionsFromMeasurementFamily({ code: "Empty", units: [] }, project)).toEqual([]);
  });
});

describe("optionsFromCurrencies", () => {
  it.each([
    [[], []],
    [["EUR"], ["EUR"]],
    [
      ["USD", "EUR", "CHF"],
      ["USD", "EUR", "CHF"],
    ],
    [
      ["EUR", "eur", "USD", "EUR"],
      ["EUR", "USD"],
    ],
  ])("%j gives %j", (codes, expected) => {
    const options = optionsFromCurrencies(codes);
    expect(options.map((o) => o.name)).toEqual(expected);
    for (const option of options) expect(option.label).toEqual({});
  });

  it("gives each option its own labels object", () => {
    const [a, b] = optionsFromCurrencies(["EUR", "USD"]);
    expect(a?.label).not.toBe(b?.label);
  });
});
