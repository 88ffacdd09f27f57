import { describe, expect } from "vitest";
import { ATTRIBUTE_TYPES_TO_READ } from "../../../../src/core/domain/pim-catalog.js";
import { HttpError } from "../../../../src/infra/http/http-error.js";
import { collect, startPimHarness, type PimHarness } from "./start-pim-client.js";
import { test, type PimSyncFixtures } from "../../../support/fixtures.js";
import { SKU_ATTRIBUTE } from "../../../support/sku-attribute.js";

let closeAfter: PimSyncFixtures["closeAfter"];
test.beforeEach(({ closeAfter: keeper }) => {
  closeAfter = keeper;
});

async function start(...args: Parameters<typeof startPimHarness>): Promise<PimHarness> {
  return closeAfter(await startPimHarness(...args));
}

describe("reading the structure", () => {
  test("reads and maps every list, following `next` across pages", async () => {
    const { client, server } = await start();
    const structure = await client.readStructure();

    expect(structure.attributes.map((attribute) => attribute.code)).toEqual(["sku", "release_date", "food_composition", "auto_exposure"]);
    expect(structure.attributes[0]).toEqual(SKU_ATTRIBUTE);
    expect(structure.channels.map((channel) => channel.code)).toEqual(["ecommerce", "mobile", "print"]);
    expect(structure.locales).toEqual([
      { code: "en_US", enabled: true },
      { code: "fr_FR", enabled: true },
      { code: "de_DE", enabled: true },
      { code: "af_ZA", enabled: false },
    ]);
    expect(structure.currencies.map((currency) => currency.code)).toEqual(["ADP", "AED", "AFA"]);
    expect(structure.families).toEqual([
      { code: "camcorders", attributes: ["sku", "release_date", "auto_exposure"] },
      { code: "empty_family", attributes: [] },
    ]);
    expect(structure.measurementFamilies[0]?.units.map((unit) => unit.code)).toEqual([
      "SQUARE_MILLIMETER",
      "SQUARE_CENTIMETER",
      "SQUARE_METER",
    ]);

    const [first, second, ...more] = server.restRequests("attributes");
    expect(more).toEqual([]);
    expect(first?.query.get("limit")).toBe("100");
    const search: unknown = JSON.parse(first?.query.get("search") ?? "null");
    expect(search).toEqual({ type: [{ operator: "IN", value: ATTRIBUTE_TYPES_TO_READ }] });
    // The second page is exactly the `next` href: `page` is never built by the client.
    expect(second?.query.toString()).toBe("page=4&limit=3");
    expect(server.restRequests("locales")).toHaveLength(1);
    expect(server.restRequests("measurement-families")[0]?.query.toString()).toBe("");
  });

  test("logs in once for many concurrent reads and keeps at most 4 requests in flight", async () => {
    const { client, server } = await start();
    // Slow answers make the client's requests overlap, so the cap is what limits them.
    server.controls.responseDelayMs = 25;
    const reads = await Promise.all([
      client.readStructure(),
      ...Array.from({ length: 10 }, () => client.getAttributeOption("color", "black")),
    ]);

    expect(reads).toHaveLength(11);
    expect(server.grants).toEqual(["password"]);
    expect(server.maxRestInFlight).toBe(4);
    expect(client.stats.requests).toBe(server.requests.filter((request) => request.path.startsWith("/api/rest/")).length);
  });
});

describe("attribute options", () => {
  test("pages through `_links.next` with limit=100 on the first request", async () => {
    const { client, server } = await start();
    const pages = await collect(client.attributeOptionPages("color"));

    expect(pages.map((page) => page.map((option) => option.code))).toEqual([
      ["red", "black", "purple"],
      ["optionA", "optionB"],
    ]);
    expect(pages[0]?.[0]).toEqual({ code: "red", labels: { en_US: "Red", fr_FR: "Rouge" } });
    const requests = server.restRequests("attributes/color/options");
    // with_count on the first request: the count is checked against what was read.
    expect(requests.map((request) => request.query.toString())).toEqual(["limit=100&with_count=true", "page=4&limit=3"]);
  });

  test("gets one option, and null for an unknown one", async () => {
    const { client } = await start();
    await expect(client.getAttributeOption("color", "black")).resolves.toEqual({
      code: "black",
      labels: { en_US: "Black", fr_FR: "Noir" },
    });
    await expect(client.getAttributeOption("color", "no_such_option")).resolves.toBeNull();
  });

  test("treats a 404 on the options list as permanent: one request, no retry", async () => {
    const { client, server } = await start();
    const failure = await collect(client.attributeOptionPages("not_found")).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(HttpError);
    expect(failure).toMatchObject({ status: 404, transient: false, code: "HTTP_STATUS" });
    expect(server.restRequests("attributes/not_found/options")).toHaveLength(1);
    await expect(collect(client.attributeOptionPages("sku"))).rejects.toMatchObject({ status: 404, transient: false });
  });

  test("encodes codes as single path segments", async () => {
    const { client, server } = await start();
    await expect(client.getAttributeOption("color", "a/b?c")).resolves.toBeNull();
    expect(server.requests.at(-1)?.path).toBe("/api/rest/v1/attributes/color/options/a%2Fb%3Fc");
  });
});

describe("reference entities and records", () => {
  test("lists entity codes across search_after pages", async () => {
    const { client, server } = await start();
    await expect(client.listReferenceEntities()).resolves.toEqual(["brands", "designers", "colors", "materials"]);
    expect(server.restRequests("reference-entities").map((request) => request.query.get("search_after"))).toEqual([null, "2x055w=="]);
  });

  test("pages through records without `limit`, reducing each to its label values", async () => {
    const { client, server } = await start();
    const pages = await collect(client.referenceEntityRecordPages("brands"));

    expect(pages).toEqual([
      [
        { code: "kartell", labels: { en_US: "Kartell" } },
        { code: "usm", labels: { en_US: "USM" } },
        { code: "ligneroset", labels: { en_US: "Ligne Roset" } },
      ],
      // Per-channel and non-text label values are left out.
      [{ code: "vitra", labels: { en_US: "Vitra" } }],
    ]);
    expect(server.restRequests("reference-entities/brands/records").map((request) => request.query.toString())).toEqual([
      "",
      "search_after=2x088w%3D%3D",
    ]);
  });

  test("gets one record, and null for an unknown one", async () => {
    const { client } = await start();
    await expect(client.getRecord("brands", "kartell")).resolves.toEqual({ code: "kartell", labels: { en_US: "Kartell" } });
    await expect(client.getRecord("brands", "nobody")).resolves.toBeNull();
  });
});

describe("writes", () => {
  test("upserts options as NDJSON in batches of 100 and returns every line's status", async () => {
    // Four batches in all: a higher write rate than the PIM's 3/s keeps the test from waiting.
    const { client, server } = await start({ optionWritesPerSecond: 10 });
    const options = Array.from({ length: 250 }, (_, index) => ({ code: `opt_${index}`, labels: { en_US: `Option ${index}` } }));
    options[120] = { code: "bad-code", labels: { en_US: "Bad" } };
    const results = await client.upsertAttributeOptions("material", options);

    const patches = server.restRequests("attributes/material/options").filter((request) => request.method === "PATCH");
    expect(patches.map((request) => request.body.split("\n").length)).toEqual([100, 100, 50]);
    expect(patches.every((request) => request.contentType === "application/vnd.akeneo.collection+json")).toBe(true);
    const firstLine: unknown = JSON.parse(patches[0]?.body.split("\n")[0] ?? "null");
    expect(firstLine).toEqual({ code: "opt_0", attribute: "material", labels: { en_US: "Option 0" } });

    expect(results).toHaveLength(250);
    expect(results[0]).toEqual({ code: "opt_0", status: 201 });
    expect(results[120]).toEqual({
      code: "bad-code",
      status: 422,
      message: "Validation failed. | code: Option code may contain only letters, numbers and underscores",
    });
    expect(results.filter((result) => result.status === 201)).toHaveLength(249);

    const again = await client.upsertAttributeOptions("material", options.slice(0, 2));
    expect(again).toEqual([
      { code: "opt_0", status: 204 },
      { code: "opt_1", status: 204 },
    ]);
    await expect(client.upsertAttributeOptions("material", [])).resolves.toEqual([]);
  });

  test("counts option writes against their own per-second limit", async () => {
    const { client, server } = await start({ optionWritesPerSecond: 1 });
    const options = Array.from({ length: 101 }, (_, index) => ({ code: `opt_${index}`, labels: {} }));
    await client.upsertAttributeOptions("material", options);

    const [first, second] = server.restRequests("attributes/material/options");
    expect((second?.atMs ?? 0) - (first?.atMs ?? 0)).toBeGreaterThanOrEqual(990);
  });

  test("upserts records as a JSON array of label values and returns every item's status", async () => {
    const { client, server } = await start();
    const results = await client.upsertRecords("brands", [
      { code: "kartell", labels: { en_US: "Kartell", fr_FR: "Kartell FR" } },
      { code: "usm", labels: {} },
      { code: "not valid", labels: { en_US: "Nope" } },
    ]);

    expect(results).toEqual([
      { code: "kartell", status: 201 },
      { code: "usm", status: 201 },
      { code: "not valid", status: 422, message: "Validation failed." },
    ]);
    const [patch] = server.restRequests("reference-entities/brands/records");
    expect(patch?.contentType).toBe("application/json");
    const sent: unknown = JSON.parse(patch?.body ?? "null");
    expect(sent).toEqual([
      {
        code: "kartell",
        values: {
          label: [
            { locale: "en_US", channel: null, data: "Kartell" },
            { locale: "fr_FR", channel: null, data: "Kartell FR" },
          ],
        },
      },
      { code: "usm", values: { label: [] } },
      { code: "not valid", values: { label: [{ locale: "en_US", channel: null, data: "Nope" }] } },
    ]);
  });
});
