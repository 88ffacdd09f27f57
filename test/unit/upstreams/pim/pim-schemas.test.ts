import { describe, expect, it } from "vitest";
import {
  toPimAttribute,
  toPimAttributeOption,
  toPimChannel,
  toPimCurrency,
  toPimFamily,
  toPimLocale,
  toPimMeasurementFamily,
  toPimRecord,
} from "../../../../src/upstreams/pim/map-pim-catalog.js";
import {
  attributeOptionSchema,
  attributeSchema,
  channelSchema,
  conversionUnitsSchema,
  currencySchema,
  familySchema,
  labelsSchema,
  localeSchema,
  measurementFamiliesSchema,
  measurementFamilySchema,
  pageSchema,
  recordSchema,
  referenceEntitySchema,
  searchAfterPageSchema,
  tokenResponseSchema,
} from "../../../../src/upstreams/pim/pim-schemas.js";
import { CURRENCY_ENABLED_WHEN_UNSAID } from "../../../../src/upstreams/pim/pim-assumptions.js";
import { akeneoFixture } from "./read-akeneo-fixture.js";
import { SKU_ATTRIBUTE } from "../../../support/sku-attribute.js";

describe("token responses", () => {
  it.each(["token_response.json", "token_response_doc_example.json", "token_response_refresh.json"])("%s parses", (name) => {
    const token = tokenResponseSchema.parse(akeneoFixture(name));
    expect(token.expires_in).toBe(3600);
    expect(token.token_type).toBe("bearer");
    expect(token.scope).toBeNull();
    expect(token.access_token.length).toBeGreaterThan(20);
    expect(token.refresh_token?.length).toBeGreaterThan(20);
  });

  it("keeps the exact tokens of the published example", () => {
    const token = tokenResponseSchema.parse(akeneoFixture("token_response.json"));
    expect(token.access_token).toBe("ZTZmYjU4ZmQxZWNmMzk1M2NlYzA5NmFhNmIzVjExMzE4NmJmODBkZGIyYTliYmQyNjk2ZDQwZThmNjdiZDQzOQ");
    expect(token.refresh_token).toBe("M2FlODI0OTE3ODMyNjViMzRiOWE5ODMyNWViMThkNDU5YzJjNjFiZjNkZWFjMzIyYjc4YTgzZWY1MjE5ZTY5Mw");
  });

  it("rejects the 422 error body rather than mistaking it for a token", () => {
    expect(tokenResponseSchema.safeParse(akeneoFixture("token_error_422_invalid_client.json")).success).toBe(false);
  });
});

describe("attributes", () => {
  const page = pageSchema(attributeSchema).parse(akeneoFixture("attributes_list_response.json"));

  it("parses the list envelope and follows its links", () => {
    expect(page.current_page).toBe(3);
    expect(page._links?.next?.href).toBe("https://demo.akeneo.com/api/rest/v1/attributes?page=4&limit=3");
    expect(page._embedded.items.map((item) => item.code)).toEqual(["sku", "release_date", "food_composition"]);
  });

  it("maps an item to the domain, `available_locales: []` included", () => {
    expect(page._embedded.items.map(toPimAttribute)[0]).toEqual(SKU_ATTRIBUTE);
  });

  it("tolerates fields it does not know (a table attribute's configuration)", () => {
    const table = page._embedded.items[2];
    expect(table && toPimAttribute(table)).toMatchObject({ code: "food_composition", type: "pim_catalog_table" });
  });

  it("parses a single attribute", () => {
    const attribute = toPimAttribute(attributeSchema.parse(akeneoFixture("attribute_get_response.json")));
    expect(attribute).toMatchObject({
      code: "release_date",
      type: "pim_catalog_date",
      labels: { en_US: "Sale date", fr_FR: "Date des soldes" },
    });
  });

  it("reads `available_locales: null` (concept example) as no restriction", () => {
    const attribute = toPimAttribute(attributeSchema.parse(akeneoFixture("attribute_concepts_example_boolean.json")));
    expect(attribute).toEqual({
      code: "auto_exposure",
      type: "pim_catalog_boolean",
      localizable: false,
      scopable: false,
      availableLocales: [],
      metricFamily: null,
      referenceDataName: null,
      labels: { de_DE: "Auto exposure", en_US: "Auto exposure", fr_FR: "Auto exposure" },
    });
  });

  it("keeps metric family and reference entity codes", () => {
    const base = { code: "x", localizable: true, scopable: true, labels: [] };
    expect(toPimAttribute(attributeSchema.parse({ ...base, type: "pim_catalog_metric", metric_family: "Weight" })).metricFamily).toBe(
      "Weight",
    );
    const linked = toPimAttribute(
      attributeSchema.parse({ ...base, type: "akeneo_reference_entity", reference_data_name: "brands", available_locales: ["en_US"] }),
    );
    expect(linked).toMatchObject({ referenceDataName: "brands", availableLocales: ["en_US"], labels: {} });
  });
});

describe("attribute options", () => {
  it("parses the documented page", () => {
    const page = pageSchema(attributeOptionSchema).parse(akeneoFixture("attribute_options_list_response.json"));
    expect(page._links?.next?.href).toBe("https://demo.akeneo.com/api/rest/v1/attributes/color/options?page=4&limit=3");
    expect(page._embedded.items.map(toPimAttributeOption)).toEqual([
      { code: "red", labels: { en_US: "Red", fr_FR: "Rouge" } },
      { code: "black", labels: { en_US: "Black", fr_FR: "Noir" } },
      { code: "purple", labels: { en_US: "Purple", fr_FR: "Violet" } },
    ]);
  });

  it("parses a single option", () => {
    const option = toPimAttributeOption(attributeOptionSchema.parse(akeneoFixture("attribute_option_get_response.json")));
    expect(option).toEqual({ code: "black", labels: { en_US: "Black", fr_FR: "Noir" } });
  });

  it("parses the CE page with `items_count` and the empty page past the end", () => {
    const counted = pageSchema(attributeOptionSchema).parse(
      akeneoFixture("from-pim-community-dev/attribute_options_list_response_with_count.json"),
    );
    expect(counted.items_count).toBe(2);
    expect(counted._links?.next).toBeUndefined();
    expect(counted._embedded.items.map((item) => item.code)).toEqual(["optionA", "optionB"]);
    const past = pageSchema(attributeOptionSchema).parse(
      akeneoFixture("from-pim-community-dev/attribute_options_list_response_out_of_range_page.json"),
    );
    expect(past._embedded.items).toEqual([]);
    expect(past._links?.next).toBeUndefined();
  });
});

describe("channels", () => {
  it("parses the list, null conversion units included", () => {
    const page = pageSchema(channelSchema).parse(akeneoFixture("channels_list_response.json"));
    expect(page._embedded.items.map(toPimChannel)).toEqual([
      { code: "ecommerce", locales: ["en_US", "fr_FR", "de_DE"], currencies: ["USD", "EUR"] },
      { code: "mobile", locales: ["en_US", "fr_FR", "de_DE"], currencies: ["USD", "EUR"] },
      { code: "print", locales: ["en_US", "fr_FR", "de_DE"], currencies: ["USD", "EUR"] },
    ]);
    expect(page._embedded.items[0]?.conversion_units).toEqual({
      a_metric: "KILOWATT",
      a_metric_negative: "CELSIUS",
      a_metric_to_not_convert: null,
    });
  });

  it("parses a single channel", () => {
    const channel = toPimChannel(channelSchema.parse(akeneoFixture("channel_get_response.json")));
    expect(channel).toEqual({ code: "ecommerce", locales: ["de_DE", "en_US", "fr_FR"], currencies: ["USD", "EUR"] });
  });

  it("accepts SaaS conversion units holding rule objects, and `[]`", () => {
    const saas = akeneoFixture("channel_conversion_units_saas_example.json");
    const units = conversionUnitsSchema.parse(
      typeof saas === "object" && saas !== null && "conversion_units" in saas ? saas.conversion_units : undefined,
    );
    expect(units).toMatchObject({ display_diagonal: "INCH", pim_config_family_rules: { Weight: { en_US: { unit: "POUND" } } } });
    const channel = akeneoFixture("channel_get_response.json");
    expect(channelSchema.safeParse({ ...(typeof channel === "object" ? channel : {}), conversion_units: units }).success).toBe(true);
    expect(channelSchema.parse({ code: "c", locales: ["en_US"], currencies: ["EUR"], conversion_units: [], labels: [] }).labels).toEqual(
      {},
    );
  });
});

describe("locales", () => {
  it("parses the list", () => {
    const page = pageSchema(localeSchema).parse(akeneoFixture("locales_list_response.json"));
    expect(page._embedded.items.map(toPimLocale)).toEqual([
      { code: "en_US", enabled: true },
      { code: "fr_FR", enabled: true },
      { code: "de_DE", enabled: true },
      { code: "af_ZA", enabled: false },
    ]);
    // The published example's next link is its own page: the client must not loop on it.
    expect(page._links?.next?.href).toBe(page._links?.self?.href);
  });

  it("reads the single-locale example's `enable` typo as `enabled`, `enabled` winning when both come", () => {
    expect(toPimLocale(localeSchema.parse(akeneoFixture("locale_get_response.json")))).toEqual({ code: "en_US", enabled: true });
    expect(localeSchema.parse({ code: "fr_FR", enabled: false, enable: true })).toEqual({ code: "fr_FR", enabled: false });
  });
});

describe("currencies", () => {
  it("parses the list and a single currency", () => {
    const page = pageSchema(currencySchema).parse(akeneoFixture("currencies_list_response.json"));
    expect(page._embedded.items.map(toPimCurrency)).toEqual([
      { code: "ADP", enabled: true },
      { code: "AED", enabled: true },
      { code: "AFA", enabled: false },
    ]);
    expect(currencySchema.parse(akeneoFixture("currency_get_response.json"))).toEqual({ code: "EUR", enabled: true, label: "EUR (Euro)" });
  });
});

describe("families", () => {
  // No family payload is among the official fixtures: this one follows the documented family shape.
  it("keeps the attribute codes", () => {
    const family = familySchema.parse({
      code: "camcorders",
      attribute_as_label: "name",
      attribute_as_image: null,
      attributes: ["sku", "name", "color"],
      attribute_requirements: { ecommerce: ["sku"] },
      labels: [],
    });
    expect(toPimFamily(family)).toEqual({ code: "camcorders", attributes: ["sku", "name", "color"] });
  });
});

describe("measurement families", () => {
  const expectedArea = {
    code: "AREA",
    units: [
      { code: "SQUARE_MILLIMETER", labels: { en_US: "Square millimeter", fr_FR: "Millimètre carré" } },
      { code: "SQUARE_CENTIMETER", labels: { en_US: "Square centimeter", fr_FR: "Centimètre carré" } },
      { code: "SQUARE_METER", labels: { en_US: "Square meter", fr_FR: "Mètre carré" } },
    ],
  };

  it("turns the plain array's unit objects into unit lists, in the PIM's order", () => {
    expect(measurementFamiliesSchema.parse(akeneoFixture("measurement_families_list_response.json")).map(toPimMeasurementFamily)).toEqual([
      expectedArea,
    ]);
    expect(toPimMeasurementFamily(measurementFamilySchema.parse(akeneoFixture("measurement_family_example.json")))).toEqual(expectedArea);
  });

  it("accepts pre-2022 empty labels as `[]` and a unit without its inner code", () => {
    const family = measurementFamilySchema.parse({ code: "Angle", labels: [], units: { RADIAN: { labels: [], symbol: "rad" } } });
    expect(toPimMeasurementFamily(family)).toEqual({ code: "Angle", units: [{ code: "RADIAN", labels: {} }] });
  });
});

describe("reference entities and records", () => {
  it("parses the search_after list of entities", () => {
    const page = searchAfterPageSchema(referenceEntitySchema).parse(akeneoFixture("reference_entities_list_response.json"));
    expect(page._embedded.items.map((item) => item.code)).toEqual(["brands", "designers", "colors"]);
    expect(page._links?.next?.href).toBe("https://demo.akeneo.com/api/rest/v1/reference-entities?search_after=2x055w%3D%3D");
    expect(referenceEntitySchema.parse(akeneoFixture("reference_entity_get_response.json")).labels).toEqual({
      en_US: "Brands",
      fr_FR: "Marques",
    });
  });

  it("reduces records to their label values (the `updated` with seconds = 60 is no obstacle)", () => {
    const page = searchAfterPageSchema(recordSchema).parse(akeneoFixture("reference_entity_records_list_response.json"));
    expect(page._links?.next?.href).toBe("https://demo.akeneo.com/api/rest/v1/reference-entities/brands/records?search_after=2x088w%3D%3D");
    expect(page._embedded.items.map(toPimRecord)).toEqual([
      { code: "kartell", labels: { en_US: "Kartell" } },
      { code: "usm", labels: { en_US: "USM" } },
      { code: "ligneroset", labels: { en_US: "Ligne Roset" } },
    ]);
    expect(toPimRecord(recordSchema.parse(akeneoFixture("reference_entity_record_get_response.json")))).toEqual({
      code: "kartell",
      labels: { en_US: "Kartell" },
    });
  });

  it("ignores per-channel, locale-less and non-text label values", () => {
    const record = recordSchema.parse({
      code: "vitra",
      values: {
        label: [
          { locale: "en_US", channel: null, data: "Vitra" },
          { locale: "fr_FR", channel: "ecommerce", data: "Vitra (e-commerce)" },
          { locale: null, channel: null, data: "no locale" },
          { locale: "de_DE", channel: null, data: 42 },
        ],
      },
    });
    expect(toPimRecord(record)).toEqual({ code: "vitra", labels: { en_US: "Vitra" } });
    expect(toPimRecord(recordSchema.parse({ code: "empty", values: [] }))).toEqual({ code: "empty", labels: {} });
  });
});

describe("labels", () => {
  it("accepts an object with null values, `[]`, null and nothing; rejects other shapes", () => {
    expect(labelsSchema.parse({ en_US: "Red", fr_FR: null })).toEqual({ en_US: "Red", fr_FR: null });
    expect(labelsSchema.parse([])).toEqual({});
    expect(labelsSchema.parse(null)).toEqual({});
    expect(labelsSchema.parse(undefined)).toEqual({});
    expect(labelsSchema.safeParse(["Red"]).success).toBe(false);
    expect(labelsSchema.safeParse({ en_US: 1 }).success).toBe(false);
  });
});

/**
 * Akeneo's API description (its Swagger file, excerpted in swagger_response_definitions.json)
 * requires only a few properties of each answer; a PIM may leave out every other one.
 */
describe("answers holding only what the description requires", () => {
  interface Definition {
    readonly required?: readonly string[];
    readonly allOf?: readonly Definition[];
  }
  const description = akeneoFixture("swagger_response_definitions.json") as {
    definitions: Record<string, Definition>;
    token_response: Definition;
  };
  const requiredOf = (definition: Definition | undefined): string[] =>
    [...(definition?.required ?? []), ...(definition?.allOf ?? []).flatMap(requiredOf)].sort();

  // Each holds exactly the required properties of its definition (checked below).
  const minimal = {
    Attribute: { code: "color", type: "pim_catalog_simpleselect", group: "marketing" },
    AttributeOption: { code: "red" },
    Family: { code: "shoes", attribute_as_label: "name" },
    Channel: { code: "ecommerce", category_tree: "master", locales: ["en_US"], currencies: ["EUR"] },
    Locale: { code: "en_US" },
    Currency: { code: "EUR" },
    MeasurementFamily: { code: "Weight", standard_unit_code: "KILOGRAM", units: { KILOGRAM: {}, GRAM: {} } },
    ReferenceEntity: { code: "brands" },
    ReferenceEntityRecord: { code: "kartell" },
  } as const;

  it.each(Object.keys(minimal))("the %s used below holds exactly the description's required properties", (name) => {
    expect(Object.keys(minimal[name as keyof typeof minimal]).sort()).toEqual(requiredOf(description.definitions[name]));
  });

  it("an attribute without `localizable`/`scopable` (documented default false), locales, family, entity or labels", () => {
    expect(toPimAttribute(attributeSchema.parse(minimal.Attribute))).toEqual({
      code: "color",
      type: "pim_catalog_simpleselect",
      localizable: false,
      scopable: false,
      availableLocales: [],
      metricFamily: null,
      referenceDataName: null,
      labels: {},
    });
    // A given value wins over the default; null reads as the default.
    const given = toPimAttribute(attributeSchema.parse({ ...minimal.Attribute, localizable: true, scopable: null }));
    expect(given).toMatchObject({ localizable: true, scopable: false });
  });

  it("an option without `attribute`, `sort_order` or labels", () => {
    expect(toPimAttributeOption(attributeOptionSchema.parse(minimal.AttributeOption))).toEqual({ code: "red", labels: {} });
  });

  it("a family without attributes (documented default []) or labels", () => {
    expect(toPimFamily(familySchema.parse(minimal.Family))).toEqual({ code: "shoes", attributes: [] });
  });

  it("a channel without conversion units or labels", () => {
    expect(toPimChannel(channelSchema.parse(minimal.Channel))).toEqual({ code: "ecommerce", locales: ["en_US"], currencies: ["EUR"] });
  });

  it("a locale without `enabled` is disabled (documented default false)", () => {
    expect(toPimLocale(localeSchema.parse(minimal.Locale))).toEqual({ code: "en_US", enabled: false });
    expect(toPimLocale(localeSchema.parse({ code: "en_US", enabled: null }))).toEqual({ code: "en_US", enabled: false });
  });

  it("a currency without `enabled` (no documented default) is read as pim-assumptions.ts says: enabled", () => {
    expect(CURRENCY_ENABLED_WHEN_UNSAID).toBe(true);
    expect(toPimCurrency(currencySchema.parse(minimal.Currency))).toEqual({ code: "EUR", enabled: true });
    expect(currencySchema.parse(minimal.Currency).label).toBeUndefined();
    expect(toPimCurrency(currencySchema.parse({ code: "GBP", enabled: false }))).toEqual({ code: "GBP", enabled: false });
  });

  it("a measurement family without labels, and units holding none of their optional properties", () => {
    expect(toPimMeasurementFamily(measurementFamilySchema.parse(minimal.MeasurementFamily))).toEqual({
      code: "Weight",
      units: [
        { code: "KILOGRAM", labels: {} },
        { code: "GRAM", labels: {} },
      ],
    });
  });

  it("a reference entity without labels or image, a record without values, a value without `locale`/`channel`", () => {
    expect(referenceEntitySchema.parse(minimal.ReferenceEntity)).toEqual({ code: "brands", labels: {} });
    expect(toPimRecord(recordSchema.parse(minimal.ReferenceEntityRecord))).toEqual({ code: "kartell", labels: {} });
    // A label value without `channel` is channel-less; one without `locale` has no key to go under.
    const values = { label: [{ locale: "en_US", data: "Kartell" }, { channel: null, data: "no locale" }, {}] };
    expect(toPimRecord(recordSchema.parse({ code: "kartell", values }))).toEqual({ code: "kartell", labels: { en_US: "Kartell" } });
  });

  it("a token answer without `expires_in`, `refresh_token`, `token_type` or `scope`; never without `access_token`", () => {
    // The description requires nothing of a token answer; pim-sync needs the token itself.
    expect(requiredOf(description.token_response)).toEqual([]);
    expect(tokenResponseSchema.parse({ access_token: "abc" })).toEqual({ access_token: "abc" });
    expect(tokenResponseSchema.parse({ access_token: "abc", expires_in: null, refresh_token: null })).toMatchObject({
      expires_in: undefined,
      refresh_token: undefined,
    });
    expect(tokenResponseSchema.safeParse({ expires_in: 3600, refresh_token: "r" }).success).toBe(false);
  });

  it("page envelopes without `_links` or `current_page`, items without `_links`", () => {
    const page = pageSchema(localeSchema).parse({ _embedded: { items: [{ code: "en_US", enabled: true }, { code: "es_ES" }] } });
    expect(page._embedded.items.map(toPimLocale)).toEqual([
      { code: "en_US", enabled: true },
      { code: "es_ES", enabled: false },
    ]);
    expect(searchAfterPageSchema(recordSchema).parse({ _embedded: { items: [minimal.ReferenceEntityRecord] } })._links).toBeUndefined();
  });
});
