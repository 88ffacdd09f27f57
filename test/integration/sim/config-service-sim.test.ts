import { describe, expect } from "vitest";

import { startConfigServiceSimulator } from "../../../sim/config-service/config-service-simulator.js";
import type { ConfigServiceSimulator, ConfigServiceSimulatorOptions } from "../../../sim/config-service/config-service-simulator.js";
import { startPimSimulator } from "../../../sim/pim/pim-simulator.js";
import type { PimSimulator } from "../../../sim/pim/pim-simulator.js";
import { sampleCatalog } from "./sim-test-helpers.js";
import { test, type PimSyncFixtures } from "../../support/fixtures.js";

const TOKEN = "sim-service-token";
const LIST = "/api/v1/options_collections/options_collections";

interface ListBody {
  count: number;
  next: string | null;
  previous: string | null;
  results: { id: number; name: string; project: number }[];
}

describe("configuration-service simulator", () => {
  let closeAfter: PimSyncFixtures["closeAfter"];
  test.beforeEach(({ closeAfter: keeper }) => {
    closeAfter = keeper;
  });
  let service: ConfigServiceSimulator | undefined;
  let pim: PimSimulator | undefined;

  const start = async (options: Partial<ConfigServiceSimulatorOptions> = {}): Promise<ConfigServiceSimulator> => {
    // 1000 req/s unless a test is about the throttle: the other tests send bursts.
    service = closeAfter(
      await startConfigServiceSimulator({ catalog: (await sampleCatalog()).service, requestsPerSecond: 1000, ...options }),
    );
    return service;
  };

  const call = (sim: ConfigServiceSimulator, method: string, path: string, body?: unknown, token = TOKEN): Promise<Response> =>
    fetch(`${sim.url}${path}`, {
      method,
      headers: { authorization: `Token ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const update = (sim: ConfigServiceSimulator, id: number, body: unknown): Promise<Response> =>
    call(sim, "PATCH", `/api/v1/options_collections/${id}/update-options/`, body);
  const add = (sim: ConfigServiceSimulator, id: number, body: unknown): Promise<Response> =>
    call(sim, "PATCH", `/api/v1/options_collections/${id}/add-options/`, body);
  const optionsOf = (sim: ConfigServiceSimulator, id: number) => sim.collections().find((collection) => collection.id === id)?.options;

  test("issues a token per user and token name, and checks Token auth DRF-style", async () => {
    const sim = await start();
    const tokenOf = (body: unknown) =>
      fetch(`${sim.url}/api/v1/auth/token/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const credentials = { email: "sim@example.com", password: "sim-password", token_name: "pim-sync" };
    const first = (await (await tokenOf(credentials)).json()) as { key: string };
    expect(first.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(await (await tokenOf(credentials)).json()).toEqual(first);
    const other = (await (await tokenOf({ ...credentials, token_name: "other" })).json()) as { key: string };
    expect(other.key).not.toBe(first.key);
    expect((await call(sim, "GET", LIST, undefined, first.key)).status).toBe(200);

    const missing = await tokenOf({ email: "sim@example.com" });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ password: ["This field is required."], token_name: ["This field is required."] });
    const wrong = await tokenOf({ ...credentials, password: "nope" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ non_field_errors: ["Unable to log in with provided credentials."] });

    const none = await fetch(`${sim.url}${LIST}`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ detail: "Authentication credentials were not provided." });
    const bearer = await fetch(`${sim.url}${LIST}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(await bearer.json()).toEqual({ detail: "Authentication credentials were not provided." });
    const invalid = await call(sim, "GET", LIST, undefined, "nope");
    expect(invalid.status).toBe(401);
    expect(await invalid.json()).toEqual({ detail: "Invalid token." });
    expect(sim.requests.every((request) => !JSON.stringify(request).includes(TOKEN))).toBe(true);
  });

  test("lists collections across pages and projects, sorted by id, with absolute next/previous", async () => {
    const sim = await start();
    const all: ListBody["results"] = [];
    let url: string | null = `${sim.url}${LIST}?page=1&limit=4`;
    const pages: ListBody[] = [];
    while (url !== null) {
      const page = (await (await fetch(url, { headers: { authorization: `Token ${TOKEN}` } })).json()) as ListBody;
      pages.push(page);
      all.push(...page.results);
      url = page.next;
    }
    expect(all.map((collection) => collection.id)).toEqual(sim.collections().map((collection) => collection.id));
    expect(new Set(all.map((collection) => collection.project))).toEqual(new Set([67, 99]));
    expect(pages).toHaveLength(4);
    expect(pages[0]).toMatchObject({ count: 15, previous: null, next: `${sim.url}${LIST}?page=2&limit=4` });
    expect(pages[1]?.previous).toBe(`${sim.url}${LIST}?limit=4`);
    expect(Object.keys(pages[0] ?? {})).toEqual(["count", "next", "previous", "results"]);
    expect(Object.keys(pages[0]?.results[0] ?? {})).toEqual(["id", "name", "project"]);

    const only99 = (await (await call(sim, "GET", `${LIST}?project=99`)).json()) as ListBody;
    expect(only99).toEqual({ count: 1, next: null, previous: null, results: [{ id: 30, name: "color", project: 99 }] });
    const defaults = (await (await call(sim, "GET", LIST)).json()) as ListBody;
    expect(defaults.results).toHaveLength(15);
    expect((await call(sim, "GET", `${LIST}?page=9`)).status).toBe(404);
    expect(await (await call(sim, "GET", `${LIST}?page=9`)).json()).toEqual({ detail: "Invalid page." });
    expect((await call(sim, "GET", `${LIST}?project=12345`)).status).toBe(400);
  });

  test("caps limit at pageSizeMax", async () => {
    const sim = await start({ pageSizeMax: 5 });
    const page = (await (await call(sim, "GET", `${LIST}?limit=50`)).json()) as ListBody;
    expect(page.results).toHaveLength(5);
    expect(page.next).toContain("page=2");
  });

  test("update-options: delete_all, then deletes, then upserts (each replacing the label map)", async () => {
    const sim = await start();
    const response = await update(sim, 30, {
      upsert_options: [
        { name: "red", label: { "fr-FR": "Rouge" } },
        { name: "lime", label: { "en-US": "Lime" } },
      ],
      delete_options: ["red", "absent"],
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 30, name: "color", project: 99 });
    // red was deleted then upserted again: it comes back last, with only the new label.
    expect(optionsOf(sim, 30)).toEqual([
      { name: "navy", label: { "en-US": "Navy", "fr-FR": "Marine" } },
      { name: "red", label: { "fr-FR": "Rouge" } },
      { name: "lime", label: { "en-US": "Lime" } },
    ]);
    expect((await update(sim, 30, { upsert_options: [{ name: "navy", label: { "en-US": "Dark blue" } }] })).status).toBe(200);
    expect(optionsOf(sim, 30)?.[0]).toEqual({ name: "navy", label: { "en-US": "Dark blue" } });

    await update(sim, 30, { delete_all: true, upsert_options: [{ name: "only", label: {} }] });
    expect(optionsOf(sim, 30)).toEqual([{ name: "only", label: {} }]);
    expect(sim.writes()[30]?.map((write) => write.kind)).toEqual(["update-options", "update-options", "update-options"]);
    expect(sim.writes()[30]?.[2]?.body).toEqual({ delete_all: true, upsert_options: [{ name: "only", label: {} }] });
    expect(optionsOf(sim, 18)).toEqual([{ name: "keep_me", label: { "en-US": "Keep me", "fr-FR": "Garde-moi" } }]);
  });

  test("update-options: 400 for malformed options, 404 for an unknown id, 415 for a non-JSON body", async () => {
    const sim = await start();
    const cases: unknown[] = [
      { upsert_options: [{ name: "x", label: {} }], extra: true },
      { upsert_options: [{ name: 5, label: {} }] },
      { upsert_options: [{ name: "", label: {} }] },
      { upsert_options: [{ name: "x", label: { "en-US": "" } }] },
      { upsert_options: [{ name: "x", label: { "en-US": 3 } }] },
      { upsert_options: [{ name: "x", label: { en_US: "X" } }] },
      { upsert_options: [{ name: "x", labels: { "en-US": "X" } }] },
      {
        upsert_options: [
          { name: "x", label: {} },
          { name: "x", label: {} },
        ],
      },
      { delete_all: "yes" },
    ];
    for (const body of cases) {
      const response = await update(sim, 5, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const errors = (await response.json()) as Record<string, unknown>;
      for (const messages of Object.values(errors)) expect(Array.isArray(messages)).toBe(true);
    }
    const labelError = await (await update(sim, 5, { upsert_options: [{ name: "x", label: { en_US: "X" } }] })).json();
    expect(labelError).toEqual({ upsert_options: [expect.stringContaining("en-US")] });
    expect(optionsOf(sim, 5)).toEqual([]);
    expect(sim.writes()[5]).toBeUndefined();

    expect(await (await update(sim, 4040, {})).json()).toEqual({ detail: "Not found." });
    const asText = await fetch(`${sim.url}/api/v1/options_collections/5/update-options/`, {
      method: "PATCH",
      headers: { authorization: `Token ${TOKEN}`, "content-type": "text/plain" },
      body: "{}",
    });
    expect(asText.status).toBe(415);
  });

  test("add-options appends, refuses existing names, and writes select options into the PIM", async () => {
    const catalog = await sampleCatalog();
    pim = closeAfter(await startPimSimulator({ catalog: catalog.pim }));
    const sim = await start({ pim });
    const response = await add(sim, 5, {
      upsert_options: [
        { name: "red", label: { "en-US": "Red!" } },
        { name: "teal", label: { "en-US": "Teal", "fr-FR": "Sarcelle" } },
      ],
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 5, name: "color", project: 67 });
    expect(optionsOf(sim, 5)?.map((option) => option.name)).toEqual(["red", "teal"]);
    const colors = pim.state.attribute_options["color"] ?? [];
    expect(colors.find((option) => option.code === "teal")).toMatchObject({ labels: { en_US: "Teal", fr_FR: "Sarcelle" } });
    // An option the PIM already had is left unchanged.
    expect(colors.find((option) => option.code === "red")?.labels).toEqual({ en_US: "Red", fr_FR: "Rouge", de_DE: "Rot" });

    const again = await add(sim, 5, { upsert_options: [{ name: "teal", label: {} }] });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ upsert_options: [expect.stringContaining('"teal"')] });
    expect((await add(sim, 5, {})).status).toBe(400);
    expect(sim.writes()[5]).toHaveLength(1);
  });

  test("add-options creates reference-entity records and refuses unit and currency collections", async () => {
    const catalog = await sampleCatalog();
    pim = closeAfter(await startPimSimulator({ catalog: catalog.pim }));
    const sim = await start({ pim });
    expect((await add(sim, 14, { upsert_options: [{ name: "alessi", label: { "en-US": "Alessi" } }] })).status).toBe(200);
    expect(pim.state.reference_entity_records["brands"]?.find((record) => record.code === "alessi")?.values).toEqual({
      label: [{ locale: "en_US", channel: null, data: "Alessi" }],
    });
    for (const id of [16, 17]) {
      const refused = await add(sim, id, { upsert_options: [{ name: "TON", label: {} }] });
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { non_field_errors: string[] };
      expect(body.non_field_errors[0]).toMatch(id === 16 ? /unit/ : /currenc/);
      expect(optionsOf(sim, id)).toEqual([]);
    }
    const badCode = await add(sim, 6, { upsert_options: [{ name: "not-a-code", label: {} }] });
    expect(badCode.status).toBe(400);
    expect(optionsOf(sim, 6)).toEqual([]);
  });

  test("throttles past 10 requests a second with Retry-After: 1, or without it when configured", async () => {
    const sim = await start({ requestsPerSecond: 10 });
    const responses = await Promise.all(Array.from({ length: 12 }, () => call(sim, "GET", LIST)));
    const limited = responses.filter((response) => response.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(responses.filter((response) => response.status === 200).length).toBeLessThanOrEqual(10);
    expect(limited[0]?.headers.get("retry-after")).toBe("1");
    expect(await limited[0]?.json()).toEqual({ detail: "Request was throttled. Expected available in 1 second." });
    await sim.close();

    const bare = await start({ requestsPerSecond: 1, retryAfterOnRateLimit: false });
    const pair = await Promise.all([call(bare, "GET", LIST), call(bare, "GET", LIST)]);
    const throttled = pair.find((response) => response.status === 429);
    expect(throttled?.headers.get("retry-after")).toBeNull();
  });

  test("injects faults in DRF's dialect", async () => {
    const sim = await start();
    sim.faults.failNext({ method: "PATCH", path: /update-options/ }, { status: 502 });
    const failed = await update(sim, 5, {});
    expect(failed.status).toBe(502);
    expect(await failed.json()).toEqual({ detail: "A server error occurred." });
    expect((await update(sim, 5, {})).status).toBe(200);
    expect(sim.stats().byRoute["PATCH /api/v1/options_collections/:id/update-options/"]).toBe(2);
  });

  test("lets `after` matching requests through before a fault fires (a failure half-way)", async () => {
    const sim = await start();
    sim.faults.failNext({ method: "PATCH", path: /update-options/ }, { status: 503, after: 2, times: 1 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await update(sim, 5, {})).status);
    expect(statuses).toEqual([200, 200, 503, 200]);
    expect(sim.faults.pending()).toBe(0);
  });
});
