import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { startPimSimulator } from "../../../sim/pim/pim-simulator.js";
import type { PimSimulator } from "../../../sim/pim/pim-simulator.js";
import { akeneoFixture, basic, getJson, keysOf, pimToken, requestPimToken, sampleCatalog } from "./sim-test-helpers.js";
import type { TokenBody } from "./sim-test-helpers.js";

describe("PIM simulator: OAuth", () => {
  let sim: PimSimulator;
  let attributesUrl: string;

  beforeAll(async () => {
    sim = await startPimSimulator({ catalog: (await sampleCatalog()).pim, tokenTtlSeconds: 60 });
    attributesUrl = `${sim.url}/api/rest/v1/attributes`;
  });
  afterAll(async () => {
    await sim.close();
  });

  it("grants a token with the password grant, in token_response.json's shape", async () => {
    const response = await requestPimToken(sim.url);
    expect(response.status).toBe(200);
    const body = (await response.json()) as TokenBody;
    expect(keysOf(body)).toEqual(keysOf(akeneoFixture("token_response.json")));
    expect(body).toMatchObject({ expires_in: 60, token_type: "bearer", scope: null });
    expect((await getJson(attributesUrl, body.access_token)).status).toBe(200);
    const recorded = await sim.waitForRequest((request) => request.path === "/api/oauth/v1/token", 1000);
    expect(recorded.authScheme).toBe("Basic");
    expect(JSON.stringify(sim.requests)).not.toContain(body.access_token);
  });

  it("accepts a form-encoded body", async () => {
    const response = await fetch(`${sim.url}/api/oauth/v1/token`, {
      method: "POST",
      headers: { authorization: basic("sim-client", "sim-secret"), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "password", username: "sim-user", password: "sim-password" }).toString(),
    });
    expect(response.status).toBe(200);
  });

  it("answers 422 with the documented message for a bad client, a bad secret or no Basic header", async () => {
    const expected = akeneoFixture("token_error_422_invalid_client.json");
    for (const authorization of [basic("nobody", "sim-secret"), basic("sim-client", "wrong"), "Bearer x"]) {
      const response = await requestPimToken(sim.url, undefined, authorization);
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual(expected);
    }
  });

  it("answers 422 for a bad user or password, and for an unknown grant", async () => {
    const badUser = await requestPimToken(sim.url, { grant_type: "password", username: "sim-user", password: "nope" });
    expect(badUser.status).toBe(422);
    expect(keysOf(await badUser.json())).toEqual(["code", "message"]);
    const badGrant = await requestPimToken(sim.url, { grant_type: "client_credentials" });
    expect(badGrant.status).toBe(422);
  });

  it("refreshes into a new access and refresh token; a refresh token works once", async () => {
    const first = await pimToken(sim.url);
    const refreshed = await requestPimToken(sim.url, { grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    const second = (await refreshed.json()) as TokenBody;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await getJson(attributesUrl, second.access_token)).status).toBe(200);

    const reused = await requestPimToken(sim.url, { grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(reused.status).toBe(422);
  });

  it("answers the three 401s: missing, invalid, expired (expireAllTokens)", async () => {
    const missing = await fetch(attributesUrl);
    expect(missing.status).toBe(401);
    const missingBody = await missing.json();
    expect(missingBody).toEqual(akeneoFixture("error_401_unauthorized.json"));

    const invalid = await getJson(attributesUrl, "made-up-token");
    expect(invalid).toMatchObject({ status: 401, body: { code: 401, message: "The access token provided is invalid." } });

    const token = await pimToken(sim.url);
    sim.expireAllTokens();
    const expired = await getJson(attributesUrl, token.access_token);
    expect(expired).toMatchObject({ status: 401, body: { code: 401, message: "The access token provided has expired." } });
    expect(keysOf(expired.body)).toEqual(keysOf(missingBody));

    // Refresh tokens survive expireAllTokens().
    const refreshed = await requestPimToken(sim.url, { grant_type: "refresh_token", refresh_token: token.refresh_token });
    expect(refreshed.status).toBe(200);
    const renewed = (await refreshed.json()) as TokenBody;
    expect((await getJson(attributesUrl, renewed.access_token)).status).toBe(200);
  });

  it("sends Basic credentials to a REST route as 'Authentication is required'", async () => {
    const response = await fetch(attributesUrl, { headers: { authorization: basic("sim-client", "sim-secret") } });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 401, message: "Authentication is required" });
  });

  it("really expires tokens after expires_in, and refresh tokens after 14 days", async () => {
    const token = await pimToken(sim.url);
    const realNow = Date.now.bind(Date);
    const clock = vi.spyOn(Date, "now");
    try {
      clock.mockImplementation(() => realNow() + 59_000);
      expect((await getJson(attributesUrl, token.access_token)).status).toBe(200);
      clock.mockImplementation(() => realNow() + 61_000);
      const expired = await getJson(attributesUrl, token.access_token);
      expect(expired.body).toEqual({ code: 401, message: "The access token provided has expired." });

      clock.mockImplementation(() => realNow() + 15 * 24 * 3600 * 1000);
      const late = await requestPimToken(sim.url, { grant_type: "refresh_token", refresh_token: token.refresh_token });
      expect(late.status).toBe(422);
    } finally {
      clock.mockRestore();
    }
  });
});
