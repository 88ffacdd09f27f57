import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startPimSimulator } from "../../../sim/pim/pim-simulator.js";
import type { PimSimulator } from "../../../sim/pim/pim-simulator.js";
import { getJson, pimToken, sampleCatalog, walkPages } from "./sim-test-helpers.js";
import type { PageBody } from "./sim-test-helpers.js";

describe("PIM simulator: reads", () => {
  let sim: PimSimulator;
  let token: string;
  let api: string;

  beforeAll(async () => {
    // A high per-second budget: this file tests reads, not the budget, and walks many pages fast.
    sim = await startPimSimulator({ catalog: (await sampleCatalog()).pim, recordsPageSize: 2, budgets: { requestsPerSecond: 1000 } });
    token = (await pimToken(sim.url)).access_token;
    api = `${sim.url}/api/rest/v1`;
  });
  afterAll(async () => {
    await sim.close();
  });

  it("walks attributes by _links.next with limit 3, sorted by code, with absolute links", async () => {
    const pages = await walkPages(`${api}/attributes?limit=3`, token);
    const codes = pages.flatMap((page) => page._embedded.items.map((item) => item.code));
    expect(codes).toEqual([...sim.state.attributes.map((attribute) => attribute.code)].sort());
    expect(pages).toHaveLength(Math.ceil(codes.length / 3));
    expect(pages.map((page) => page.current_page)).toEqual(pages.map((_, index) => index + 1));
    expect(pages[0]?._links.previous).toBeUndefined();
    expect(pages[1]?._links.previous?.href).toBe(`${api}/attributes?page=1&limit=3`);
    expect(pages[pages.length - 1]?._links.next).toBeUndefined();
    expect(pages[0]?._embedded.items[0]?.["_links"]).toEqual({ self: { href: `${api}/attributes/brand` } });
  });

  it("walks the options of an attribute with limit 3, sorted by code; with_count is repeated in links", async () => {
    const pages = await walkPages(`${api}/attributes/color/options?limit=3&with_count=true`, token);
    expect(pages.flatMap((page) => page._embedded.items.map((item) => item.code))).toEqual(["black", "blue", "green", "red", "white"]);
    expect(pages[0]?.items_count).toBe(5);
    expect(pages[0]?._links.next?.href).toBe(`${api}/attributes/color/options?page=2&limit=3&with_count=true`);
    expect(pages[0]?._embedded.items[0]).toMatchObject({ attribute: "color", labels: { en_US: "Black", fr_FR: null } });
  });

  it("answers a page past the end with 200 and no items", async () => {
    const { status, body } = await getJson(`${api}/attributes/color/options?page=9&limit=3`, token);
    expect(status).toBe(200);
    expect((body as PageBody)._embedded.items).toEqual([]);
    expect((body as PageBody)._links.next).toBeUndefined();
  });

  it("refuses limit 101 with 422", async () => {
    const { status, body } = await getJson(`${api}/attributes?limit=101`, token);
    expect(status).toBe(422);
    expect(body).toEqual({ code: 422, message: "You cannot request more than 100 items." });
  });

  it("filters attributes by type and code, and keeps the search in links", async () => {
    const search = JSON.stringify({ type: [{ operator: "IN", value: ["pim_catalog_simpleselect", "pim_catalog_multiselect"] }] });
    const pages = await walkPages(`${api}/attributes?limit=2&search=${encodeURIComponent(search)}`, token);
    expect(pages.flatMap((page) => page._embedded.items.map((item) => item.code))).toEqual(["color", "material", "season", "size_eu"]);
    expect(new URL(pages[0]?._links.next?.href ?? "").searchParams.get("search")).toBe(search);

    const byCode = JSON.stringify({ code: [{ operator: "IN", value: ["sku", "weight", "nope"] }] });
    const { body } = await getJson(`${api}/attributes?search=${encodeURIComponent(byCode)}`, token);
    expect((body as PageBody)._embedded.items.map((item) => item.code)).toEqual(["sku", "weight"]);

    const unsupported = JSON.stringify({ group: [{ operator: "IN", value: ["x"] }] });
    expect((await getJson(`${api}/attributes?search=${encodeURIComponent(unsupported)}`, token)).status).toBe(422);
    expect((await getJson(`${api}/attributes?search=${encodeURIComponent("{nope")}`, token)).status).toBe(400);
  });

  it("serves one attribute, and the PIM's 404s", async () => {
    expect((await getJson(`${api}/attributes/weight`, token)).body).toMatchObject({ code: "weight", metric_family: "Weight" });
    expect(await getJson(`${api}/attributes/nope`, token)).toMatchObject({ status: 404, body: { code: 404 } });
    expect(await getJson(`${api}/attributes/nope/options`, token)).toMatchObject({
      status: 404,
      body: { code: 404, message: 'Attribute "nope" does not exist.' },
    });
    const sku = await getJson(`${api}/attributes/sku/options`, token);
    expect(sku.status).toBe(404);
    expect((sku.body as { message: string }).message).toContain('Attribute "sku" does not support options.');
    expect((await getJson(`${api}/attributes/legacy_fabric/options`, token)).status).toBe(404);
    expect(await getJson(`${api}/attributes/color/options/RED`, token)).toMatchObject({ status: 200, body: { code: "red" } });
  });

  it("filters locales on enabled and serves channels, currencies and families", async () => {
    const search = encodeURIComponent(JSON.stringify({ enabled: [{ operator: "=", value: true }] }));
    const locales = await getJson(`${api}/locales?search=${search}`, token);
    expect((locales.body as PageBody)._embedded.items.map((item) => item.code)).toEqual(["de_DE", "en_US", "fr_FR"]);
    const channels = (await getJson(`${api}/channels`, token)).body as PageBody;
    expect(channels._embedded.items.map((item) => item.code)).toEqual(["ecommerce", "mobile"]);
    const currencies = (await getJson(`${api}/currencies`, token)).body as PageBody;
    expect(currencies._embedded.items.map((item) => [item.code, item["enabled"]])).toEqual([
      ["EUR", true],
      ["GBP", false],
      ["USD", true],
    ]);
    const families = (await getJson(`${api}/families`, token)).body as PageBody;
    expect(families._embedded.items[0]).toMatchObject({ code: "shoes", attribute_as_label: "name" });
  });

  it("serves measurement families as a plain array", async () => {
    const { status, body } = await getJson(`${api}/measurement-families`, token);
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    const weight = (body as { code: string; units: Record<string, unknown> }[])[0];
    expect(weight?.code).toBe("Weight");
    expect(Object.keys(weight?.units ?? {})).toHaveLength(4);
  });

  it("pages records by search_after with the configured page size, with no current_page", async () => {
    const pages = await walkPages(`${api}/reference-entities/brands/records`, token);
    const codes = pages.flatMap((page) => page._embedded.items.map((item) => item.code));
    expect(codes).toEqual(["hay", "kartell", "ligneroset", "muuto", "usm", "vitra"]);
    // 6 records in pages of 2: three full pages, then the empty page a full page's next leads to.
    expect(pages.map((page) => page._embedded.items.length)).toEqual([2, 2, 2, 0]);
    expect(pages[0]?._links.self.href).toBe(`${api}/reference-entities/brands/records`);
    expect(pages[0]?.current_page).toBeUndefined();
    expect(pages[1]?._links.previous).toBeUndefined();
    expect(new URL(pages[0]?._links.next?.href ?? "").searchParams.get("search_after")).toBeTruthy();
  });

  it("keeps only the requested locales of record values, and ignores limit", async () => {
    const pages = await walkPages(`${api}/reference-entities/brands/records?locales=fr_FR&limit=1`, token);
    const usm = pages.flatMap((page) => page._embedded.items).find((item) => item.code === "usm");
    expect(usm?.["values"]).toEqual({
      label: [{ locale: "fr_FR", channel: null, data: "USM" }],
      country: [{ locale: null, channel: null, data: "switzerland" }],
    });
    expect(pages[0]?._links.next?.href).toContain("locales=fr_FR");
    expect(pages[0]?._embedded.items).toHaveLength(2);
  });

  it("pages reference entities by search_after", async () => {
    const pages = await walkPages(`${api}/reference-entities`, token);
    expect(pages.flatMap((page) => page._embedded.items.map((item) => item.code))).toEqual(["brands", "designers"]);
    expect((await getJson(`${api}/reference-entities/nope/records`, token)).status).toBe(404);
  });

  it("refuses an Accept other than JSON with 406, and accepts */*", async () => {
    expect((await getJson(`${api}/channels`, token, { accept: "text/html" })).status).toBe(406);
    expect((await getJson(`${api}/channels`, token, { accept: "*/*" })).status).toBe(200);
  });

  it("records requests without credentials and counts them per route", async () => {
    sim.clearRequests();
    await getJson(`${api}/channels?limit=1`, token);
    expect(sim.requests).toHaveLength(1);
    expect(sim.requests[0]).toMatchObject({
      method: "GET",
      path: "/api/rest/v1/channels",
      query: { limit: "1" },
      status: 200,
      authScheme: "Bearer",
      route: "/api/rest/v1/channels",
    });
    expect(sim.stats()).toMatchObject({ total: 1, byRoute: { "GET /api/rest/v1/channels": 1 } });
  });
});
