import { describe, expect } from "vitest";

import { startPimSimulator } from "../../../sim/pim/pim-simulator.js";
import type { PimSimulator, PimSimulatorOptions } from "../../../sim/pim/pim-simulator.js";
import { akeneoFixture, basic, pimToken, requestPimToken, sampleCatalog } from "./sim-test-helpers.js";
import { test, type PimSyncFixtures } from "../../support/fixtures.js";

const RATE_LIMIT_BODY = akeneoFixture("error_429_too_many_requests.json");

describe("PIM simulator: budgets and faults", () => {
  let closeAfter: PimSyncFixtures["closeAfter"];
  test.beforeEach(({ closeAfter: keeper }) => {
    closeAfter = keeper;
  });
  let sim: PimSimulator | undefined;

  const start = async (options: Omit<PimSimulatorOptions, "catalog"> = {}): Promise<{ sim: PimSimulator; token: string; api: string }> => {
    sim = closeAfter(await startPimSimulator({ catalog: (await sampleCatalog()).pim, ...options }));
    return { sim, token: (await pimToken(sim.url)).access_token, api: `${sim.url}/api/rest/v1` };
  };

  const get = (url: string, token: string, signal?: AbortSignal): Promise<Response> =>
    fetch(url, { headers: { authorization: `Bearer ${token}` }, signal });

  test("answers 429 with Retry-After: 1 past 4 requests in flight on one connection", async () => {
    // A gate keeps the four admitted requests in flight until the fifth has been refused.
    const { sim: pim, token, api } = await start();
    const gate = pim.holdRequests({ path: "/api/rest/v1/channels" });
    const answers = Promise.all(Array.from({ length: 5 }, () => get(`${api}/channels`, token)));
    await gate.reached(4, 10_000);
    await pim.waitForRequest((request) => request.path === "/api/rest/v1/channels" && request.status === 429, 10_000);
    expect(gate.held).toBe(4);
    gate.open();
    const responses = await answers;
    const limited = responses.filter((response) => response.status === 429);
    expect(limited).toHaveLength(1);
    expect(limited[0]?.headers.get("retry-after")).toBe("1");
    expect(await limited[0]?.json()).toEqual(RATE_LIMIT_BODY);
    expect(responses.filter((response) => response.status === 200)).toHaveLength(4);
    expect(pim.stats().maxInFlight).toBe(5);
  });

  test("counts the in-flight budget per OAuth client", async () => {
    const clients = [
      { clientId: "a", secret: "sa", username: "ua", password: "pa" },
      { clientId: "b", secret: "sb", username: "ub", password: "pb" },
    ];
    sim = closeAfter(await startPimSimulator({ catalog: (await sampleCatalog()).pim, clients, budgets: { inFlightPerConnection: 2 } }));
    const api = `${sim.url}/api/rest/v1`;
    const tokenOf = async (client: (typeof clients)[number]): Promise<string> => {
      const body = { grant_type: "password", username: client.username, password: client.password };
      const response = await requestPimToken(sim?.url ?? "", body, basic(client.clientId, client.secret));
      return ((await response.json()) as { access_token: string }).access_token;
    };
    const [tokenA, tokenB] = await Promise.all(clients.map(tokenOf));
    // Held until all four are in flight together: two per client, each within its own budget.
    const gate = sim.holdRequests({ path: "/api/rest/v1/locales" });
    const answers = Promise.all([tokenA, tokenA, tokenB, tokenB].map((token) => get(`${api}/locales`, token ?? "")));
    await gate.reached(4, 10_000);
    gate.open();
    const responses = await answers;
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
  });

  test("answers 429 past requestsPerSecond in one second", async () => {
    const { api, token } = await start({ budgets: { requestsPerSecond: 5, inFlightPerConnection: 50 } });
    // Six at once against five a second (the token request may have used one more of them).
    const responses = await Promise.all(Array.from({ length: 6 }, () => get(`${api}/channels`, token)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
    const limited = responses.find((response) => response.status === 429);
    expect(limited?.headers.get("retry-after")).toBe("1");
  });

  test("limits option writes to optionWritesPerSecond (3 by default), both PATCH routes together", async () => {
    const { api, token, sim: pim } = await start({ budgets: { inFlightPerConnection: 50 } });
    const write = (index: number): Promise<Response> =>
      index % 2 === 0
        ? fetch(`${api}/attributes/color/options/opt_${index}`, {
            method: "PATCH",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: "{}",
          })
        : fetch(`${api}/attributes/color/options`, {
            method: "PATCH",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/vnd.akeneo.collection+json" },
            body: JSON.stringify({ code: `opt_${index}` }),
          });
    const responses = await Promise.all(Array.from({ length: 5 }, (_, index) => write(index)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(3);
    // Reads are not option writes: still fine.
    expect((await get(`${api}/attributes/color/options`, token)).status).toBe(200);
    expect(pim.stats().byRoute["PATCH /api/rest/v1/attributes/:code/options/:option"]).toBe(3);
  });

  test("injects a 5xx for the matching request only, and records it", async () => {
    const { sim: pim, api, token } = await start();
    pim.faults.failNext({ method: "GET", path: "/api/rest/v1/channels" }, { status: 503, times: 2 });
    expect((await get(`${api}/locales`, token)).status).toBe(200);
    const first = await get(`${api}/channels`, token);
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBeNull();
    expect((await get(`${api}/channels`, token)).status).toBe(503);
    expect((await get(`${api}/channels`, token)).status).toBe(200);
    expect(pim.faults.pending()).toBe(0);
    expect(pim.requests.filter((request) => request.fault).map((request) => request.status)).toEqual([503, 503]);
  });

  test("injects a 429 without Retry-After, or with one, and a custom body, by RegExp", async () => {
    const { sim: pim, api, token } = await start();
    pim.faults.failNext({ path: /\/options$/ }, { status: 429 });
    const bare = await get(`${api}/attributes/color/options`, token);
    expect(bare.status).toBe(429);
    expect(bare.headers.get("retry-after")).toBeNull();
    expect(await bare.json()).toEqual(RATE_LIMIT_BODY);

    pim.faults.failNext({ path: /\/options$/ }, { status: 429, retryAfterSeconds: 7, body: { code: 429, message: "slow down" } });
    const withHeader = await get(`${api}/attributes/color/options`, token);
    expect(withHeader.headers.get("retry-after")).toBe("7");
    expect(await withHeader.json()).toEqual({ code: 429, message: "slow down" });
  });

  test("delays a faulted answer, can outlast a client timeout, and can drop the connection", async () => {
    const { sim: pim, api, token } = await start();
    pim.faults.failNext({ path: "/api/rest/v1/channels" }, { status: 500, delayMs: 150 });
    const startedAt = performance.now();
    expect((await get(`${api}/channels`, token)).status).toBe(500);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(140);

    pim.faults.failNext({ path: "/api/rest/v1/channels" }, { status: 504, delayMs: 60_000 });
    await expect(get(`${api}/channels`, token, AbortSignal.timeout(100))).rejects.toThrow();
    expect((await get(`${api}/channels`, token)).status).toBe(200);

    pim.faults.failNext({ path: "/api/rest/v1/channels" }, { status: 500, dropConnection: true });
    await expect(get(`${api}/channels`, token)).rejects.toThrow(TypeError);
    const dropped = await pim.waitForRequest((request) => request.status === 0, 1000);
    expect(dropped.fault).toBe(true);
  });

  test("holds the requests a gate selects, once admitted, until the test opens it", async () => {
    const { sim: pim, api, token } = await start();
    const gate = pim.holdRequests({ path: "/api/rest/v1/channels" });
    let answered = false;
    const held = get(`${api}/channels`, token).then((response) => {
      answered = true;
      return response;
    });
    await gate.reached(1, 10_000);
    // Other requests pass; the held one is not answered (nor recorded) while the gate is shut.
    expect((await get(`${api}/locales`, token)).status).toBe(200);
    expect(answered).toBe(false);
    expect(gate.held).toBe(1);
    expect(pim.requests.filter((request) => request.path === "/api/rest/v1/channels")).toEqual([]);
    // A request refused at admission never reaches the gate.
    expect((await get(`${api}/channels`, "not-a-token")).status).toBe(401);
    expect(gate.held).toBe(1);
    gate.open();
    expect((await held).status).toBe(200);
    expect(gate.held).toBe(0);
    // An opened gate holds nothing more.
    expect((await get(`${api}/channels`, token)).status).toBe(200);
    await expect(pim.holdRequests({ path: "/nothing" }).reached(1, 50)).rejects.toThrow("0 of 1 request(s) reached the gate within 50 ms");

    // `after`: the first matching requests go by, the next is held (a hold half-way).
    const halfWay = pim.holdRequests({ path: "/api/rest/v1/currencies" }, { after: 2 });
    expect((await get(`${api}/currencies`, token)).status).toBe(200);
    expect((await get(`${api}/currencies`, token)).status).toBe(200);
    const third = get(`${api}/currencies`, token);
    await halfWay.reached(1, 10_000);
    expect(halfWay.held).toBe(1);
    halfWay.open();
    expect((await third).status).toBe(200);
  });

  test("adds latency to answers and lets tests change it", async () => {
    const { sim: pim, api, token } = await start();
    pim.setLatencyMs(120);
    const startedAt = performance.now();
    expect((await get(`${api}/channels`, token)).status).toBe(200);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(110);
    pim.setLatencyMs(0);
  });
});
