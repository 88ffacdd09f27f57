import { describe, expect, it } from "vitest";
import type { NamingTemplates } from "../../../../src/core/derive/naming.js";
import { DEFAULT_NAMING, renderName, validateNamingTemplates } from "../../../../src/core/derive/naming.js";

function withTemplate(key: keyof NamingTemplates, template: string): NamingTemplates {
  return { ...DEFAULT_NAMING, [key]: template };
}

describe("DEFAULT_NAMING", () => {
  it("has the documented templates", () => {
    expect(DEFAULT_NAMING).toEqual({
      select: "{attribute}",
      localizable: "{attribute}-{locale}",
      scopable: "{attribute}-{channel}",
      localizableScopable: "{attribute}-{locale}-{channel}",
      unit: "{attribute}-unit",
      currency: "{attribute}-currency",
    });
  });

  it("is valid", () => {
    expect(validateNamingTemplates(DEFAULT_NAMING)).toEqual([]);
  });

  it("cannot be changed by accident", () => {
    expect(Object.isFrozen(DEFAULT_NAMING)).toBe(true);
  });
});

describe("validateNamingTemplates", () => {
  it.each<[keyof NamingTemplates, string]>([
    ["select", "pim_{attribute}"],
    ["localizable", "{attribute}_{locale}"],
    ["localizable", "{locale}.{attribute}"],
    ["scopable", "{attribute}--{channel}"],
    ["localizableScopable", "{attribute}-{channel}-{locale}"],
    ["unit", "{attribute}_unit"],
    ["currency", "{attribute}{attribute}-cur"],
  ])("accepts %s = %j", (key, template) => {
    expect(validateNamingTemplates(withTemplate(key, template))).toEqual([]);
  });

  it.each<[keyof NamingTemplates, string, string[]]>([
    ["select", "{attribute}-{lang}", ["naming template 'select' uses unknown placeholder {lang}"]],
    ["unit", "{attribute}-{}", ["naming template 'unit' uses unknown placeholder {}"]],
    [
      "scopable",
      "{Attribute}-{channel}",
      ["naming template 'scopable' uses unknown placeholder {Attribute}", "naming template 'scopable' must use {attribute}"],
    ],
    ["select", "name", ["naming template 'select' must use {attribute}"]],
    ["currency", "", ["naming template 'currency' must use {attribute}"]],
    ["localizable", "{attribute}", ["naming template 'localizable' must use {locale}"]],
    [
      "localizable",
      "{attribute}-{channel}",
      ["naming template 'localizable' must use {locale}", "naming template 'localizable' must not use {channel}"],
    ],
    ["scopable", "{attribute}", ["naming template 'scopable' must use {channel}"]],
    ["scopable", "{attribute}-{locale}-{channel}", ["naming template 'scopable' must not use {locale}"]],
    ["localizableScopable", "{attribute}-{locale}", ["naming template 'localizableScopable' must use {channel}"]],
    ["localizableScopable", "{attribute}-{channel}", ["naming template 'localizableScopable' must use {locale}"]],
    [
      "localizableScopable",
      "{attribute}",
      ["naming template 'localizableScopable' must use {locale}", "naming template 'localizableScopable' must use {channel}"],
    ],
    ["unit", "{attribute}-{locale}-unit", ["naming template 'unit' must not use {locale}"]],
    ["unit", "{attribute}-{channel}-unit", ["naming template 'unit' must not use {channel}"]],
    ["currency", "{attribute}-{locale}-currency", ["naming template 'currency' must not use {locale}"]],
    ["currency", "{attribute}-{channel}-currency", ["naming template 'currency' must not use {channel}"]],
    ["select", "{attribute}-{locale}", ["naming template 'select' must not use {locale}"]],
    ["select", "{attribute}-{channel}", ["naming template 'select' must not use {channel}"]],
    ["select", "{attribute", ["naming template 'select' has an unmatched '{' or '}'", "naming template 'select' must use {attribute}"]],
    ["select", "{attribute}}", ["naming template 'select' has an unmatched '{' or '}'"]],
    ["select", "{{attribute}}", ["naming template 'select' has an unmatched '{' or '}'"]],
  ])("rejects %s = %j", (key, template, problems) => {
    expect(validateNamingTemplates(withTemplate(key, template))).toEqual(problems);
  });

  it("reports every broken template, each by its key", () => {
    const problems = validateNamingTemplates({
      select: "x",
      localizable: "x",
      scopable: "x",
      localizableScopable: "x",
      unit: "x",
      currency: "x",
    });
    for (const key of ["select", "localizable", "scopable", "localizableScopable", "unit", "currency"]) {
      expect(problems).toContain(`naming template '${key}' must use {attribute}`);
    }
    expect(problems).toHaveLength(10);
  });

  it("reports a template missing at run time", () => {
    const partial = { ...DEFAULT_NAMING } as Partial<NamingTemplates>;
    delete partial.unit;
    expect(validateNamingTemplates(partial as NamingTemplates)).toEqual(["naming template 'unit' is missing"]);
  });
});

describe("renderName", () => {
  it.each([
    ["{attribute}", { attribute: "color" }, "color"],
    ["{attribute}-{locale}", { attribute: "color", locale: "en_US" }, "color-en_US"],
    ["{attribute}-{channel}", { attribute: "color", channel: "ecommerce" }, "color-ecommerce"],
    ["{attribute}-{locale}-{channel}", { attribute: "color", locale: "en_US", channel: "print" }, "color-en_US-print"],
    ["{attribute}-{channel}-{locale}", { attribute: "color", locale: "en_US", channel: "print" }, "color-print-en_US"],
    ["{attribute}-unit", { attribute: "weight" }, "weight-unit"],
    ["{attribute}-unit", { attribute: "weight", locale: "en_US", channel: "print" }, "weight-unit"],
    ["{attribute}/{attribute}", { attribute: "a" }, "a/a"],
    ["{attribute}", { attribute: "x", locale: null, channel: null }, "x"],
  ])("renders %j with %j as %j", (template, vars, expected) => {
    expect(renderName(template, vars)).toBe(expected);
  });

  it("does not expand placeholders inside substituted values", () => {
    expect(renderName("{attribute}-{locale}", { attribute: "{locale}", locale: "en_US" })).toBe("{locale}-en_US");
  });

  it.each([
    ["{attribute}-{locale}", { attribute: "color" }, "{locale}"],
    ["{attribute}-{locale}", { attribute: "color", locale: null }, "{locale}"],
    ["{attribute}-{locale}", { attribute: "color", locale: "" }, "{locale}"],
    ["{attribute}-{channel}", { attribute: "color", channel: null }, "{channel}"],
    ["{attribute}", { attribute: "" }, "{attribute}"],
  ])("throws when %j has no value for a placeholder (%j)", (template, vars, token) => {
    expect(() => renderName(template, vars)).toThrow(`uses ${token} but no`);
  });

  it("throws on an unknown placeholder", () => {
    expect(() => renderName("{attribute}-{lang}", { attribute: "color" })).toThrow("unknown placeholder {lang}");
  });
});
