import { describe, expect, it } from "vitest";
import type { CollectionSpec, SelectField } from "../../../../src/core/domain/option-collection.js";
import type { PimAttribute } from "../../../../src/core/domain/pim-catalog.js";
import { deriveCollectionSpecs } from "../../../../src/core/derive/derive-collection-specs.js";
import type { NamingTemplates } from "../../../../src/core/derive/naming.js";
import { DEFAULT_NAMING } from "../../../../src/core/derive/naming.js";
import type { ProjectScope } from "../../../../src/core/derive/project-scope.js";
import { attribute, catalog, channel, family, measurementFamily, scope } from "./catalog-builder.js";

const ecommerce = channel("ecommerce", ["en_US", "fr_FR"]);
const print = channel("print", ["de_DE", "en_US"]);
const projectScope = scope({ channels: [ecommerce, print], locales: ["de_DE", "en_US", "fr_FR"], currencies: ["EUR"] });

function derive(
  attributes: readonly PimAttribute[],
  options: { scope?: ProjectScope; naming?: NamingTemplates; structure?: Parameters<typeof catalog>[0] } = {},
) {
  return deriveCollectionSpecs(
    catalog({ measurementFamilies: [measurementFamily("Weight", ["KILOGRAM", "GRAM"])], ...options.structure, attributes }),
    options.scope ?? projectScope,
    options.naming ?? DEFAULT_NAMING,
  );
}

function names(attributes: readonly PimAttribute[], options: Parameters<typeof derive>[1] = {}): string[] {
  return derive(attributes, options).specs.map((spec) => spec.name);
}

const SELECT = "pim_catalog_simpleselect";
const MULTI = "pim_catalog_multiselect";
const REF = "akeneo_reference_entity";
const REF_MULTI = "akeneo_reference_entity_collection";

describe("deriveCollectionSpecs: value dimensions", () => {
  it.each([SELECT, MULTI])("%s neither localizable nor scopable gives one collection", (type) => {
    const { specs, problems } = derive([attribute("color", type)]);
    expect(specs).toEqual<CollectionSpec[]>([
      {
        name: "color",
        attribute: "color",
        kind: "select",
        locale: null,
        channel: null,
        source: { kind: "attribute-options", attribute: "color" },
      },
    ]);
    expect(problems).toEqual([]);
  });

  it("localizable only gives one collection per project locale", () => {
    const { specs } = derive([attribute("color", SELECT, { localizable: true })]);
    expect(specs.map(({ name, locale, channel }) => ({ name, locale, channel }))).toEqual([
      { name: "color-de_DE", locale: "de_DE", channel: null },
      { name: "color-en_US", locale: "en_US", channel: null },
      { name: "color-fr_FR", locale: "fr_FR", channel: null },
    ]);
  });

  it("localizable only intersects the project's locales with the available locales", () => {
    const restricted = attribute("color", SELECT, { localizable: true, availableLocales: ["fr_FR", "it_IT", "en_US"] });
    expect(names([restricted])).toEqual(["color-en_US", "color-fr_FR"]);
  });

  it("matches available locales case-insensitively", () => {
    const restricted = attribute("color", SELECT, { localizable: true, availableLocales: ["FR_fr"] });
    expect(names([restricted])).toEqual(["color-fr_FR"]);
  });

  it("localizable with no available locale in the project gives nothing and no problem", () => {
    const { specs, fields, problems, unsupported } = derive([
      attribute("color", SELECT, { localizable: true, availableLocales: ["it_IT"] }),
    ]);
    expect([specs, fields, problems, unsupported]).toEqual([[], [], [], []]);
  });

  it("localizable in a project without locales gives nothing", () => {
    expect(names([attribute("color", SELECT, { localizable: true })], { scope: scope({ channels: [ecommerce] }) })).toEqual([]);
  });

  it("scopable only gives one collection per project channel, in the scope's order", () => {
    const { specs } = derive([attribute("color", SELECT, { scopable: true })], {
      scope: { ...projectScope, channels: [print, ecommerce] },
    });
    expect(specs.map(({ name, locale, channel }) => ({ name, locale, channel }))).toEqual([
      { name: "color-print", locale: null, channel: "print" },
      { name: "color-ecommerce", locale: null, channel: "ecommerce" },
    ]);
  });

  it("scopable ignores available locales", () => {
    expect(names([attribute("color", SELECT, { scopable: true, availableLocales: ["it_IT"] })])).toEqual([
      "color-ecommerce",
      "color-print",
    ]);
  });

  it("scopable in a project without channels gives nothing", () => {
    expect(names([attribute("color", SELECT, { scopable: true })], { scope: scope({ locales: ["en_US"] }) })).toEqual([]);
  });

  it("localizable and scopable gives one collection per channel and channel locale", () => {
    const { specs } = derive([attribute("color", SELECT, { localizable: true, scopable: true })]);
    expect(specs.map(({ name, locale, channel }) => ({ name, locale, channel }))).toEqual([
      { name: "color-en_US-ecommerce", locale: "en_US", channel: "ecommerce" },
      { name: "color-fr_FR-ecommerce", locale: "fr_FR", channel: "ecommerce" },
      { name: "color-de_DE-print", locale: "de_DE", channel: "print" },
      { name: "color-en_US-print", locale: "en_US", channel: "print" },
    ]);
  });

  it("localizable and scopable leaves out channel locales outside the project", () => {
    const narrow = { ...projectScope, locales: ["en_US"] };
    expect(names([attribute("color", SELECT, { localizable: true, scopable: true })], { scope: narrow })).toEqual([
      "color-en_US-ecommerce",
      "color-en_US-print",
    ]);
  });

  it("localizable and scopable intersects with available locales", () => {
    const restricted = attribute("color", SELECT, { localizable: true, scopable: true, availableLocales: ["de_DE", "fr_FR"] });
    expect(names([restricted])).toEqual(["color-fr_FR-ecommerce", "color-de_DE-print"]);
  });

  it("localizable and scopable skips a channel with no locale left", () => {
    const restricted = attribute("color", SELECT, { localizable: true, scopable: true, availableLocales: ["de_DE"] });
    expect(names([restricted])).toEqual(["color-de_DE-print"]);
  });

  it("localizable and scopable with no pair left gives nothing and no problem", () => {
    const { specs, problems } = derive([attribute("color", SELECT, { localizable: true, scopable: true, availableLocales: ["it_IT"] })]);
    expect(specs).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("follows the channel filter the scope carries", () => {
    const onlyPrint = { ...projectScope, channels: [print] };
    expect(names([attribute("color", SELECT, { localizable: true, scopable: true })], { scope: onlyPrint })).toEqual([
      "color-de_DE-print",
      "color-en_US-print",
    ]);
  });

  it("uses the configured templates for each dimension", () => {
    const naming = {
      ...DEFAULT_NAMING,
      select: "s_{attribute}",
      localizable: "l_{attribute}_{locale}",
      scopable: "c_{attribute}_{channel}",
      localizableScopable: "{attribute}-{channel}-{locale}",
    };
    const onlyPrint = { ...projectScope, channels: [print], locales: ["en_US"] };
    expect(
      names(
        [
          attribute("a", SELECT),
          attribute("b", SELECT, { localizable: true }),
          attribute("c", SELECT, { scopable: true }),
          attribute("d", SELECT, { localizable: true, scopable: true }),
        ],
        { naming, scope: onlyPrint },
      ),
    ).toEqual(["s_a", "l_b_en_US", "c_c_print", "d-print-en_US"]);
  });
});

describe("deriveCollectionSpecs: attribute kinds", () => {
  it.each([
    [SELECT, "select", { kind: "attribute-options", attribute: "color" }],
    [MULTI, "select", { kind: "attribute-options", attribute: "color" }],
    [REF, "reference-entity", { kind: "reference-entity-records", referenceEntity: "brands" }],
    [REF_MULTI, "reference-entity", { kind: "reference-entity-records", referenceEntity: "brands" }],
  ])("%s has kind %s and its source", (type, kind, source) => {
    const { specs } = derive([attribute("color", type, { referenceDataName: "brands", localizable: true, scopable: true })]);
    expect(specs).toHaveLength(4);
    for (const spec of specs) {
      expect(spec.kind).toBe(kind);
      expect(spec.source).toEqual(source);
    }
  });

  it.each([REF, REF_MULTI])("%s expands like a select", (type) => {
    expect(names([attribute("brand", type, { referenceDataName: "brands", scopable: true })])).toEqual(["brand-ecommerce", "brand-print"]);
  });

  it.each([
    [REF, null],
    [REF, ""],
    [REF_MULTI, "  "],
    [REF_MULTI, null],
  ])("%s without a reference entity (%j) is a problem and gives nothing", (type, referenceDataName) => {
    const { specs, fields, problems } = derive([attribute("brand", type, { referenceDataName })]);
    expect(specs).toEqual([]);
    expect(fields).toEqual([]);
    expect(problems).toEqual([`attribute 'brand' (${type}) has no reference entity code (reference_data_name)`]);
  });

  it("a metric gives one unit collection whatever its dimensions", () => {
    const { specs, problems } = derive([
      attribute("weight", "pim_catalog_metric", { metricFamily: "Weight", localizable: true, scopable: true }),
    ]);
    expect(specs).toEqual<CollectionSpec[]>([
      {
        name: "weight-unit",
        attribute: "weight",
        kind: "unit",
        locale: null,
        channel: null,
        source: { kind: "measurement-units", measurementFamily: "Weight" },
      },
    ]);
    expect(problems).toEqual([]);
  });

  it("a metric's family is found case-insensitively and named as the PIM spells it", () => {
    const { specs } = derive([attribute("weight", "pim_catalog_metric", { metricFamily: "WEIGHT" })]);
    expect(specs[0]?.source).toEqual({ kind: "measurement-units", measurementFamily: "Weight" });
  });

  it.each([null, "", " "])("a metric without a family (%j) is a problem", (metricFamily) => {
    const { specs, problems } = derive([attribute("weight", "pim_catalog_metric", { metricFamily })]);
    expect(specs).toEqual([]);
    expect(problems).toEqual(["attribute 'weight' (pim_catalog_metric) has no measurement family (metric_family)"]);
  });

  it("a metric whose family the PIM does not list is a problem naming both", () => {
    const { specs, problems } = derive([attribute("length", "pim_catalog_metric", { metricFamily: "Length" })]);
    expect(specs).toEqual([]);
    expect(problems).toEqual(["attribute 'length' uses measurement family 'Length', which the PIM does not list"]);
  });

  it("a price collection gives one currency collection whatever its dimensions", () => {
    const { specs } = derive([attribute("price", "pim_catalog_price_collection", { scopable: true, localizable: true })]);
    expect(specs).toEqual<CollectionSpec[]>([
      { name: "price-currency", attribute: "price", kind: "currency", locale: null, channel: null, source: { kind: "currencies" } },
    ]);
  });

  it("uses the unit and currency templates", () => {
    const naming = { ...DEFAULT_NAMING, unit: "{attribute}__unit", currency: "cur_{attribute}" };
    expect(
      names([attribute("weight", "pim_catalog_metric", { metricFamily: "Weight" }), attribute("price", "pim_catalog_price_collection")], {
        naming,
      }),
    ).toEqual(["cur_price", "weight__unit"]);
  });

  it.each(["pim_reference_data_simpleselect", "pim_reference_data_multiselect"])("%s is unsupported", (type) => {
    const { specs, fields, unsupported, problems } = derive([attribute("legacy", type, { referenceDataName: "colors" })]);
    expect(specs).toEqual([]);
    expect(fields).toEqual([]);
    expect(problems).toEqual([]);
    expect(unsupported).toEqual([{ attribute: "legacy", type, reason: "legacy reference data has no options in the PIM API" }]);
  });

  it.each([
    "pim_catalog_identifier",
    "pim_catalog_text",
    "pim_catalog_textarea",
    "pim_catalog_boolean",
    "pim_catalog_date",
    "pim_catalog_number",
    "pim_catalog_image",
    "pim_catalog_file",
    "pim_catalog_asset_collection",
    "pim_catalog_table",
    "pim_catalog_product_link",
    "PIM_CATALOG_SIMPLESELECT",
    "",
  ])("%j is ignored silently", (type) => {
    const derived = derive([attribute("other", type, { localizable: true, scopable: true, referenceDataName: "x" })]);
    expect(derived).toEqual({ specs: [], fields: [], unsupported: [], problems: [] });
  });
});

describe("deriveCollectionSpecs: select fields", () => {
  it("gives each collection a select field of the same name", () => {
    const { specs, fields } = derive([attribute("color", SELECT, { scopable: true })]);
    expect(fields.map((f) => f.name)).toEqual(specs.map((s) => s.name));
    expect(fields.map((f) => f.options_collection_name)).toEqual(specs.map((s) => s.name));
    expect(fields[0]).toEqual<SelectField>({
      name: "color-ecommerce",
      groups: [],
      requirement_level: "optional",
      type: "select",
      options_collection_name: "color-ecommerce",
      multiple: false,
    });
  });

  it.each([
    [SELECT, false],
    [MULTI, true],
    [REF, false],
    [REF_MULTI, true],
    ["pim_catalog_metric", false],
    ["pim_catalog_price_collection", false],
  ])("%s fields have multiple = %s", (type, multiple) => {
    const { fields } = derive([attribute("a", type, { referenceDataName: "brands", metricFamily: "Weight", localizable: true })]);
    expect(fields.length).toBeGreaterThan(0);
    for (const field of fields) expect(field.multiple).toBe(multiple);
  });

  it("groups a field under every family holding its attribute, sorted", () => {
    const { fields } = derive([attribute("color", SELECT, { localizable: true })], {
      structure: {
        families: [
          family("shoes", ["sku", "color"]),
          family("accessories", ["color"]),
          family("bags", ["size"]),
          family("CLOTHES", ["COLOR"]),
        ],
      },
    });
    expect(fields).toHaveLength(3);
    for (const field of fields) expect(field.groups).toEqual(["CLOTHES", "accessories", "shoes"]);
  });

  it("lists a family once even if it names the attribute twice", () => {
    const { fields } = derive([attribute("color", SELECT)], { structure: { families: [family("shoes", ["color", "color"])] } });
    expect(fields[0]?.groups).toEqual(["shoes"]);
  });

  it("groups unit and currency fields by their attribute's families", () => {
    const { fields } = derive(
      [attribute("weight", "pim_catalog_metric", { metricFamily: "Weight" }), attribute("price", "pim_catalog_price_collection")],
      { structure: { families: [family("shoes", ["weight", "price"]), family("food", ["weight"])] } },
    );
    expect(fields.map((f) => [f.name, f.groups])).toEqual([
      ["price-currency", ["shoes"]],
      ["weight-unit", ["food", "shoes"]],
    ]);
  });
});

describe("deriveCollectionSpecs: duplicates, problems and order", () => {
  it("keeps the first of two specs with the same name and reports both attributes", () => {
    const naming = { ...DEFAULT_NAMING, unit: "{attribute}_x", select: "{attribute}" };
    const { specs, fields, problems } = derive(
      [attribute("weight_x", SELECT), attribute("weight", "pim_catalog_metric", { metricFamily: "Weight" })],
      { naming },
    );
    expect(specs.map((s) => [s.name, s.attribute])).toEqual([["weight_x", "weight"]]);
    expect(fields.map((f) => f.name)).toEqual(["weight_x"]);
    expect(problems).toEqual([
      "collection name 'weight_x' from attribute 'weight_x' clashes with one from attribute 'weight'; keeping the one from 'weight'",
    ]);
  });

  it("treats names differing only in case as the same", () => {
    const { specs, problems } = derive([attribute("Color", SELECT), attribute("color", SELECT)]);
    expect(specs.map((s) => s.attribute)).toEqual(["Color"]);
    expect(problems).toEqual([
      "collection name 'color' from attribute 'color' clashes with one from attribute 'Color'; keeping the one from 'Color'",
    ]);
  });

  it("reports a clash between collections of one attribute", () => {
    const naming = { ...DEFAULT_NAMING, localizableScopable: "{attribute}{locale}{channel}" };
    // "x" + "a" + "bc" and "x" + "ab" + "c" both give "xabc".
    const ambiguous = scope({ channels: [channel("bc", ["a"]), channel("c", ["ab"])], locales: ["a", "ab"] });
    const { specs, fields, problems } = derive([attribute("x", SELECT, { localizable: true, scopable: true })], {
      naming,
      scope: ambiguous,
    });
    expect(specs.map((s) => [s.name, s.locale, s.channel])).toEqual([["xabc", "a", "bc"]]);
    expect(fields).toHaveLength(1);
    expect(problems).toEqual(["collection name 'xabc' from attribute 'x' clashes with one from attribute 'x'; keeping the one from 'x'"]);
  });

  it("orders specs by attribute code, then channel, then locale, whatever the input order", () => {
    const attributes = [
      attribute("size", SELECT, { scopable: true }),
      attribute("brand", REF, { referenceDataName: "brands" }),
      attribute("weight", "pim_catalog_metric", { metricFamily: "Weight" }),
      attribute("Zone", SELECT),
      attribute("color", MULTI, { localizable: true, scopable: true, availableLocales: ["en_US"] }),
    ];
    const expected = ["Zone", "brand", "color-en_US-ecommerce", "color-en_US-print", "size-ecommerce", "size-print", "weight-unit"];
    expect(names(attributes)).toEqual(expected);
    expect(names([...attributes].reverse())).toEqual(expected);
  });

  it("orders unsupported attributes and problems by attribute code", () => {
    const { unsupported, problems } = derive([
      attribute("z_legacy", "pim_reference_data_simpleselect"),
      attribute("b_metric", "pim_catalog_metric"),
      attribute("a_legacy", "pim_reference_data_multiselect"),
      attribute("a_ref", REF),
    ]);
    expect(unsupported.map((u) => u.attribute)).toEqual(["a_legacy", "z_legacy"]);
    expect(problems).toEqual([
      "attribute 'a_ref' (akeneo_reference_entity) has no reference entity code (reference_data_name)",
      "attribute 'b_metric' (pim_catalog_metric) has no measurement family (metric_family)",
    ]);
  });

  it("still derives the other attributes when one has a problem", () => {
    const { specs, problems } = derive([attribute("brand", REF), attribute("color", SELECT)]);
    expect(specs.map((s) => s.name)).toEqual(["color"]);
    expect(problems).toHaveLength(1);
  });

  it("derives nothing and reports the naming problems when templates are invalid", () => {
    const naming = { ...DEFAULT_NAMING, localizable: "{attribute}", unit: "{attribute}-{channel}" };
    const derived = derive([attribute("color", SELECT), attribute("legacy", "pim_reference_data_simpleselect")], { naming });
    expect(derived).toEqual({
      specs: [],
      fields: [],
      unsupported: [],
      problems: ["naming template 'localizable' must use {locale}", "naming template 'unit' must not use {channel}"],
    });
  });

  it("gives an empty result for an empty catalogue", () => {
    expect(derive([])).toEqual({ specs: [], fields: [], unsupported: [], problems: [] });
  });

  it("does not reorder the caller's attributes", () => {
    const attributes = [attribute("b", SELECT), attribute("a", SELECT)];
    derive(attributes);
    expect(attributes.map((a) => a.code)).toEqual(["b", "a"]);
  });
});
