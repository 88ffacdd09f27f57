import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startPimSimulator } from "../../../sim/pim/pim-simulator.js";
import type { PimSimulator } from "../../../sim/pim/pim-simulator.js";
import { akeneoFixture, akeneoFixtureText, getJson, keysOf, pimToken, sampleCatalog } from "./sim-test-helpers.js";

const COLLECTION = "application/vnd.akeneo.collection+json";

describe("PIM simulator: writes", () => {
  let sim: PimSimulator;
  let token: string;
  let api: string;

  const patch = (path: string, body: string, contentType = "application/json"): Promise<Response> =>
    fetch(`${api}${path}`, { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": contentType }, body });

  beforeAll(async () => {
    // Budgets out of the way: this file tests write semantics; pim-budgets tests the 429s.
    sim = await startPimSimulator({
      catalog: (await sampleCatalog()).pim,
      budgets: { optionWritesPerSecond: 1000, requestsPerSecond: 1000 },
    });
    token = (await pimToken(sim.url)).access_token;
    api = `${sim.url}/api/rest/v1`;
  });
  afterAll(async () => {
    await sim.close();
  });

  it("creates an option (201, Location, empty body), then updates it (204), merging labels key by key", async () => {
    const created = await patch(
      "/attributes/color/options/yellow",
      JSON.stringify({ code: "yellow", labels: { en_US: "Yellow", fr_FR: "Jaune" } }),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`${api}/attributes/color/options/yellow`);
    expect(await created.text()).toBe("");
    const createdOption = sim.state.attribute_options["color"]?.find((option) => option.code === "yellow");
    expect(createdOption?.sort_order).toBe(6);

    const updated = await patch("/attributes/color/options/yellow", JSON.stringify({ labels: { de_DE: "Gelb", fr_FR: null } }));
    expect(updated.status).toBe(204);
    expect((await getJson(`${api}/attributes/color/options/yellow`, token)).body).toEqual({
      code: "yellow",
      attribute: "color",
      sort_order: 6,
      labels: { en_US: "Yellow", de_DE: "Gelb" },
    });
    expect((await patch("/attributes/color/options/yellow", JSON.stringify({ labels: { en_US: "" } }))).status).toBe(204);
    expect(sim.state.attribute_options["color"]?.find((option) => option.code === "yellow")?.labels).toEqual({ de_DE: "Gelb" });
    expect((await patch("/attributes/color/options/empty_body", "{}")).status).toBe(201);
  });

  it("refuses labels in unknown, hyphenated or disabled locales with the PIM's 422", async () => {
    const unknown = await patch("/attributes/color/options/red", JSON.stringify({ labels: { foo: "x" } }));
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toEqual(akeneoFixture("attribute_option_patch_error_422_unknown_locale.json"));
    for (const locale of ["en-US", "es_ES"]) {
      const response = await patch("/attributes/color/options/red", JSON.stringify({ labels: { [locale]: "x" } }));
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ errors: [{ property: "labels" }] });
    }
    expect(sim.state.attribute_options["color"]?.find((option) => option.code === "red")?.labels).toEqual({
      en_US: "Red",
      fr_FR: "Rouge",
      de_DE: "Rot",
    });
  });

  it("answers the PIM's other single-write errors", async () => {
    const mismatch = await patch("/attributes/color/options/red", JSON.stringify({ code: "blue" }));
    expect(mismatch.status).toBe(422);
    expect(((await mismatch.json()) as { message: string }).message).toContain("must match the option code");
    const badCode = await patch("/attributes/color/options/dark-red", "{}");
    expect(await badCode.json()).toMatchObject({ code: 422, errors: [{ property: "code" }] });
    const unknownProperty = await patch("/attributes/color/options/red", JSON.stringify({ label: {} }));
    expect(keysOf(await unknownProperty.json())).toEqual(["_links", "code", "message"]);
    expect((await patch("/attributes/color/options/red", JSON.stringify({ labels: null }))).status).toBe(422);
    expect((await patch("/attributes/nope/options/red", "{}")).status).toBe(404);
    expect((await patch("/attributes/sku/options/red", "{}")).status).toBe(422);
    expect((await patch("/attributes/color/options/red", "{oops")).status).toBe(400);
    expect((await patch("/attributes/color/options/red", "{}", "text/plain")).status).toBe(415);
  });

  it("upserts NDJSON lines with a status per line inside an HTTP 200", async () => {
    const lines = [
      JSON.stringify({ code: "orange", labels: { en_US: "Orange" } }),
      JSON.stringify({ code: "red", label: { en_US: "Red" } }),
      JSON.stringify({ code: "blue", attribute: "color", labels: { fr_FR: "Bleu clair" } }),
      "{not json",
      JSON.stringify({}),
      JSON.stringify({ code: "foo," }),
      JSON.stringify({ code: "purple", labels: { "en-US": "Purple" } }),
    ];
    const response = await patch("/attributes/color/options", `${lines.join("\n")}\n`, COLLECTION);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(COLLECTION);
    const results = (await response.text()).split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(results.map((result) => [result["line"], result["status_code"]])).toEqual([
      [1, 201],
      [2, 422],
      [3, 204],
      [4, 400],
      [5, 422],
      [6, 422],
      [7, 422],
    ]);
    const fixture = akeneoFixtureText("attribute_options_patch_collection_response.ndjson")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(keysOf(results[0])).toEqual(keysOf(fixture[0]));
    expect(keysOf(results[1])).toEqual(expect.arrayContaining(keysOf(fixture[1])));
    expect(results[4]).toEqual({ line: 5, status_code: 422, message: "Code is missing." });
    expect(results[5]).toMatchObject({ code: "foo,", errors: [{ property: "code" }] });
    expect(results[6]).toMatchObject({ code: "purple", errors: [{ property: "labels" }] });
    const colors = sim.state.attribute_options["color"] ?? [];
    expect(colors.find((option) => option.code === "blue")?.labels).toEqual({ en_US: "Blue", fr_FR: "Bleu clair", de_DE: "Blau" });
    expect(colors.some((option) => option.code === "purple")).toBe(false);
  });

  it("refuses a collection sent as application/json (415) and more than 100 lines (413)", async () => {
    const asJson = await patch("/attributes/color/options", JSON.stringify({ code: "red" }), "application/json");
    expect(asJson.status).toBe(415);
    expect(await asJson.json()).toEqual(akeneoFixture("error_415_collection_endpoint_sent_application_json.json"));

    const many = Array.from({ length: 101 }, (_, index) => JSON.stringify({ code: `bulk_${index}` })).join("\n");
    const tooMany = await patch("/attributes/color/options", many, COLLECTION);
    expect(tooMany.status).toBe(413);
    expect(await tooMany.json()).toEqual(akeneoFixture("error_413_too_many_resources.json"));
    expect(sim.state.attribute_options["color"]?.some((option) => option.code === "bulk_0")).toBe(false);
  });

  it("upserts records, singly (201/204) and as a JSON array with a status per record", async () => {
    const label = (data: string) => ({ label: [{ locale: "en_US", channel: null, data }] });
    const created = await patch("/reference-entities/brands/records/alessi", JSON.stringify({ code: "alessi", values: label("Alessi") }));
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`${api}/reference-entities/brands/records/alessi`);
    expect((await patch("/reference-entities/brands/records/alessi", JSON.stringify({ values: label("ALESSI") }))).status).toBe(204);
    expect((await getJson(`${api}/reference-entities/brands/records/alessi`, token)).body).toMatchObject({
      code: "alessi",
      values: label("ALESSI"),
    });

    const list = await patch(
      "/reference-entities/designers/records",
      JSON.stringify([
        { code: "starck", values: { label: [{ locale: "fr_FR", channel: null, data: "P. Starck" }] } },
        { code: "gray", group: "x" },
        { code: "aalto", values: label("Alvar Aalto") },
      ]),
    );
    expect(list.status).toBe(200);
    const results = (await list.json()) as Record<string, unknown>[];
    expect(results.map((result) => [result["code"], result["status_code"]])).toEqual([
      ["starck", 204],
      ["gray", 422],
      ["aalto", 201],
    ]);
    const fixture = akeneoFixture("reference_entity_records_patch_response.json") as Record<string, unknown>[];
    expect(keysOf(results[1])).toEqual(keysOf(fixture[1]));
    const starck = sim.state.reference_entity_records["designers"]?.find((record) => record.code === "starck");
    expect(starck?.values["label"]).toEqual([
      { locale: "en_US", channel: null, data: "Philippe Starck" },
      { locale: "fr_FR", channel: null, data: "P. Starck" },
    ]);
    const tooMany = JSON.stringify(Array.from({ length: 101 }, (_, index) => ({ code: `r${index}` })));
    expect((await patch("/reference-entities/designers/records", tooMany)).status).toBe(413);
  });
});
