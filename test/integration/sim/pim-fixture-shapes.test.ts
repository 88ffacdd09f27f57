/**
 * The simulator's payloads against Akeneo's own examples: every key of the official example must
 * be present in what the simulator serves (the simulator may add keys; clients must tolerate them).
 * Its sparse answers against Akeneo's API description: every required property there, of the
 * described type, and no optional one without a reason.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startPimSimulator } from "../../../sim/pim/pim-simulator.js";
import type { PimSimulator } from "../../../sim/pim/pim-simulator.js";
import { akeneoFixture, getJson, keysOf, pimToken, requestPimToken, sampleCatalog, walkPages } from "./sim-test-helpers.js";
import type { PageBody } from "./sim-test-helpers.js";
import { descriptionProblems, type DescriptionSchema, type SparseRules } from "./description-problems.js";

function firstItem(fixture: unknown): unknown {
  return (fixture as PageBody)._embedded.items[0];
}

describe("PIM simulator: payload shapes match the official examples", () => {
  let sim: PimSimulator;
  let token: string;
  let api: string;

  beforeAll(async () => {
    sim = await startPimSimulator({ catalog: (await sampleCatalog()).pim });
    token = (await pimToken(sim.url)).access_token;
    api = `${sim.url}/api/rest/v1`;
  });
  afterAll(async () => {
    await sim.close();
  });

  const listCases: [string, string, string][] = [
    ["attributes", "/attributes?limit=1&page=2", "attributes_list_response.json"],
    ["attribute options", "/attributes/color/options?limit=1&page=2", "attribute_options_list_response.json"],
    ["channels", "/channels?limit=1", "channels_list_response.json"],
    ["locales", "/locales?limit=1&page=2", "locales_list_response.json"],
    ["currencies", "/currencies?limit=1", "currencies_list_response.json"],
  ];

  it.each(listCases)("%s: item keys and page envelope keys ⊇ the example's", async (_name, path, fixtureName) => {
    const fixture = akeneoFixture(fixtureName);
    const { status, body } = await getJson(`${api}${path}`, token);
    expect(status).toBe(200);
    const page = body as PageBody;
    expect(keysOf(page)).toEqual(expect.arrayContaining(keysOf(fixture)));
    // Every chosen page has a next page, so the example's links (at most self/first/previous/next) all apply.
    expect(keysOf(page._links)).toEqual(expect.arrayContaining(keysOf((fixture as PageBody)._links)));
    expect(keysOf(page._embedded.items[0])).toEqual(expect.arrayContaining(keysOf(firstItem(fixture))));
    expect(page._links.self.href.startsWith(sim.url)).toBe(true);
  });

  it("a single attribute and a single option ⊇ the examples", async () => {
    const attribute = await getJson(`${api}/attributes/color`, token);
    expect(keysOf(attribute.body)).toEqual(expect.arrayContaining(keysOf(akeneoFixture("attribute_get_response.json"))));
    const option = await getJson(`${api}/attributes/color/options/red`, token);
    expect(keysOf(option.body)).toEqual(keysOf(akeneoFixture("attribute_option_get_response.json")));
  });

  it("reference entities and records ⊇ the examples, with search_after envelopes", async () => {
    for (const [path, fixtureName] of [
      ["/reference-entities", "reference_entities_list_response.json"],
      ["/reference-entities/brands/records", "reference_entity_records_list_response.json"],
    ] as const) {
      const fixture = akeneoFixture(fixtureName);
      const page = (await getJson(`${api}${path}`, token)).body as PageBody;
      expect(keysOf(page)).toEqual(keysOf(fixture));
      expect(keysOf(page._embedded.items[0])).toEqual(expect.arrayContaining(keysOf(firstItem(fixture)).filter((key) => key !== "_links")));
      expect(keysOf(page._embedded.items[0]?.["_links"])).toContain("self");
    }
    const record = (await getJson(`${api}/reference-entities/brands/records`, token)).body as PageBody;
    const fixtureRecord = firstItem(akeneoFixture("reference_entity_records_list_response.json")) as { values: { label: unknown[] } };
    const label = (record._embedded.items[0]?.["values"] as { label: unknown[] }).label[0];
    expect(keysOf(label)).toEqual(keysOf(fixtureRecord.values.label[0]));
  });

  it("measurement families ⊇ the example, units included", async () => {
    const fixture = (akeneoFixture("measurement_families_list_response.json") as { units: Record<string, unknown> }[])[0];
    const served = ((await getJson(`${api}/measurement-families`, token)).body as { units: Record<string, unknown> }[])[0];
    expect(keysOf(served)).toEqual(expect.arrayContaining(keysOf(fixture)));
    const fixtureUnit = Object.values(fixture?.units ?? {})[0];
    const servedUnit = Object.values(served?.units ?? {})[0];
    expect(keysOf(servedUnit)).toEqual(expect.arrayContaining(keysOf(fixtureUnit)));
  });

  it("error bodies have the examples' keys: 401, 404, 422, 429", async () => {
    const errorKeys = async (url: string, headers: Record<string, string> = {}): Promise<string[]> => {
      const response = await fetch(url, { headers });
      return keysOf(await response.json());
    };
    expect(await errorKeys(`${api}/channels`)).toEqual(keysOf(akeneoFixture("error_401_unauthorized.json")));
    const bearer = { authorization: `Bearer ${token}` };
    expect(await errorKeys(`${api}/attributes/nope`, bearer)).toEqual(keysOf(akeneoFixture("error_404_not_found.json")));
    expect(await errorKeys(`${api}/attributes/nope/options`, bearer)).toEqual(keysOf(akeneoFixture("error_404_attribute_not_found.json")));
    expect(await errorKeys(`${api}/attributes/sku/options`, bearer)).toEqual(
      keysOf(akeneoFixture("error_404_attribute_does_not_support_options.json")),
    );
    expect(await errorKeys(`${api}/attributes?limit=101`, bearer)).toEqual(keysOf(akeneoFixture("error_422_limit_over_100.json")));
    sim.faults.failNext({ path: "/api/rest/v1/channels" }, { status: 429 });
    expect(await errorKeys(`${api}/channels`, bearer)).toEqual(keysOf(akeneoFixture("error_429_too_many_requests.json")));
  });
});

describe("PIM simulator, sparse answers: what Akeneo's API description requires, and nothing it leaves optional", () => {
  let sim: PimSimulator;
  let full: PimSimulator;
  let token: string;
  let api: string;
  const description = akeneoFixture("swagger_response_definitions.json") as {
    definitions: Record<string, DescriptionSchema>;
    token_response: DescriptionSchema;
  };
  // The description types a record value's `data` as an object; its own example (like every real
  // record) holds strings: the form of `data` depends on the attribute type (reference §7).
  const recordDefinition = structuredClone(description.definitions["ReferenceEntityRecord"] ?? {}) as {
    properties: { values: { additionalProperties: { items: { properties: { data: { type?: string } } } } } };
  };
  delete recordDefinition.properties.values.additionalProperties.items.properties.data.type;
  const definitionOf = (name: string): DescriptionSchema =>
    name === "ReferenceEntityRecord" ? recordDefinition : (description.definitions[name] ?? { required: ["a definition named " + name] });

  const LINK_TYPES = ["akeneo_reference_entity", "akeneo_reference_entity_collection", "pim_catalog_asset_collection"];
  const nonEmpty = (value: unknown): boolean => typeof value === "object" && value !== null && Object.keys(value).length > 0;
  const sparseRules: SparseRules = {
    keep(path, key, value, owner) {
      // The description requires nothing of a token answer, but without the token it says nothing.
      if (path === "token") return key === "access_token";
      // Required by the description for these attribute types only.
      if (key === "metric_family" || key === "default_metric_unit") return owner["type"] === "pim_catalog_metric";
      if (key === "reference_data_name") return LINK_TYPES.includes(String(owner["type"]));
      // Content without a documented default: left out only when empty.
      if (key === "available_locales" || key === "values") return nonEmpty(value);
      // A record value's locale and channel say which value it is (left out when null); `data` is the value.
      if (/\.values\.\w+\[\d+\]$/.test(path)) return key === "data" || value !== null;
      return false;
    },
  };
  const problemsOf = (value: unknown, definition: string, path: string): string[] =>
    descriptionProblems(value, definitionOf(definition), path, sparseRules);

  beforeAll(async () => {
    const catalog = (await sampleCatalog()).pim;
    sim = await startPimSimulator({ catalog, shape: "sparse" });
    full = await startPimSimulator({ catalog });
    token = (await pimToken(sim.url)).access_token;
    api = `${sim.url}/api/rest/v1`;
  });
  afterAll(async () => {
    await Promise.all([sim.close(), full.close()]);
  });

  it("a token answer holds the access token alone (the description requires nothing of it)", async () => {
    const body: unknown = await (await requestPimToken(sim.url)).json();
    expect(keysOf(body)).toEqual(["access_token"]);
    expect(descriptionProblems(body, description.token_response, "token", sparseRules)).toEqual([]);
  });

  const lists: [string, string][] = [
    ["/attributes?limit=100", "Attribute"],
    ["/attributes/color/options?limit=2", "AttributeOption"],
    ["/attributes/size_eu/options?limit=100", "AttributeOption"],
    ["/attributes/material/options?limit=100", "AttributeOption"],
    ["/channels?limit=1", "Channel"],
    ["/locales?limit=100", "Locale"],
    ["/currencies?limit=100", "Currency"],
    ["/families?limit=100", "Family"],
    ["/reference-entities", "ReferenceEntity"],
    ["/reference-entities/brands/records", "ReferenceEntityRecord"],
    ["/reference-entities/designers/records?locales=en_US", "ReferenceEntityRecord"],
  ];

  it.each(lists)("%s: every page and item", async (path, definition) => {
    const pages = await walkPages(`${api}${path}`, token);
    expect(pages.flatMap((page) => page._embedded.items)).not.toEqual([]);
    for (const [index, page] of pages.entries()) {
      // `_links` (how a list goes on) and `_embedded` stay; `current_page` and items' `_links` go.
      expect(keysOf(page)).toEqual(["_embedded", "_links"]);
      expect(page._embedded.items.flatMap((item) => problemsOf(item, definition, `${path} page ${index + 1} ${item.code}`))).toEqual([]);
    }
  });

  it("a page asked `with_count=true` keeps `items_count`", async () => {
    const page = (await getJson(`${api}/attributes/color/options?with_count=true`, token)).body as PageBody;
    expect(keysOf(page)).toEqual(["_embedded", "_links", "items_count"]);
  });

  it.each([
    ["/attributes/color", "Attribute"],
    ["/attributes/weight", "Attribute"],
    ["/attributes/size_eu", "Attribute"],
    ["/attributes/brand", "Attribute"],
    ["/attributes/color/options/red", "AttributeOption"],
    ["/channels/ecommerce", "Channel"],
    ["/locales/es_ES", "Locale"],
    ["/currencies/EUR", "Currency"],
    ["/families/shoes", "Family"],
    ["/reference-entities/brands", "ReferenceEntity"],
    ["/reference-entities/brands/records/kartell", "ReferenceEntityRecord"],
  ])("GET %s", async (path, definition) => {
    const { status, body } = await getJson(`${api}${path}`, token);
    expect(status).toBe(200);
    expect(problemsOf(body, definition, path)).toEqual([]);
  });

  it("measurement families, units included", async () => {
    const { body } = await getJson(`${api}/measurement-families`, token);
    expect(Array.isArray(body) && body.length > 0).toBe(true);
    const families = body as Record<string, unknown>[];
    expect(families.flatMap((family, index) => problemsOf(family, "MeasurementFamily", `measurement-families[${index}]`))).toEqual([]);
  });

  it("the check sees what a full answer keeps: the same items served full break the sparse rules", async () => {
    const fullToken = (await pimToken(full.url)).access_token;
    const attributes = (await getJson(`${full.url}/api/rest/v1/attributes?limit=100`, fullToken)).body as PageBody;
    const color = attributes._embedded.items.find((item) => item.code === "color");
    expect(problemsOf(color, "Attribute", "color")).toEqual(
      expect.arrayContaining([
        "color.localizable: optional and holding its documented default false",
        "color.useable_as_grid_filter: optional, kept without a reason",
      ]),
    );
    const units = ((await getJson(`${full.url}/api/rest/v1/measurement-families`, fullToken)).body as unknown[])[0];
    expect(problemsOf(units, "MeasurementFamily", "Weight")).toContain("Weight.units.GRAM.symbol: optional, kept without a reason");
  });
});
