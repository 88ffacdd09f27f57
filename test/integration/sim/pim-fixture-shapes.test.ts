/**
 * The simulator's payloads against Akeneo's own examples: every key of the official example must
 * be present in what the simulator serves (the simulator may add keys; clients must tolerate them).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startPimSimulator } from "../../../src/sim/pim/pim-simulator.js";
import type { PimSimulator } from "../../../src/sim/pim/pim-simulator.js";
import { akeneoFixture, getJson, keysOf, pimToken, sampleCatalog } from "./sim-test-helpers.js";
import type { PageBody } from "./sim-test-helpers.js";

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
