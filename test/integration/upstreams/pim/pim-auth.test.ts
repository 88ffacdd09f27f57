import { Agent } from "undici";
import { describe, expect } from "vitest";
import { HttpError } from "../../../../src/infra/http/http-error.js";
import { createPimAuth, CREDENTIALS_REJECTED_MESSAGE, type PimAuth } from "../../../../src/upstreams/pim/pim-auth.js";
import { startFixtureServer, type FixtureServer, type FixtureServerOptions } from "./fixture-server.js";
import { createMemoryLogger } from "./memory-logger.js";
import { CREDENTIALS, startPimHarness, TEST_RETRY } from "./start-pim-client.js";
import { test, type PimSyncFixtures } from "../../../support/fixtures.js";

const HOUR_MS = 3_600_000;

let closeAfter: PimSyncFixtures["closeAfter"];
test.beforeEach(({ closeAfter: keeper }) => {
  closeAfter = keeper;
});

/** The auth against a fresh fixture server, on a clock the test moves by hand. */
async function setup(
  options: Pick<FixtureServerOptions, "expiresInS" | "tokenOmits"> = {},
): Promise<{ auth: PimAuth; server: FixtureServer; clock: { ms: number }; logs: () => string }> {
  const server = closeAfter(await startFixtureServer({ ...CREDENTIALS, ...options }));
  // Closed first (newest first), so no connection outlives the server.
  const dispatcher = new Agent({ keepAliveTimeout: 10, keepAliveMaxTimeout: 10 });
  closeAfter({ close: () => dispatcher.destroy() });
  const clock = { ms: 1_700_000_000_000 };
  const { logger, text } = createMemoryLogger();
  const auth = createPimAuth({
    baseUrl: server.baseUrl,
    credentials: CREDENTIALS,
    dispatcher,
    logger,
    retry: TEST_RETRY,
    timeoutMs: 2000,
    random: () => 0.5,
    now: () => clock.ms,
  });
  return { auth, server, clock, logs: text };
}

describe("createPimAuth", () => {
  test("logs in lazily, reuses the token, and refreshes it 30 s before it expires", async () => {
    const { auth, server, clock } = await setup();
    expect(server.grants).toEqual([]);

    const first = await auth.authorize();
    expect(first).toMatch(/^Bearer access-/);
    clock.ms += HOUR_MS - 31_000;
    await expect(auth.authorize()).resolves.toBe(first);
    expect(server.grants).toEqual(["password"]);

    clock.ms += 2_000; // 29 s left
    const second = await auth.authorize();
    expect(second).not.toBe(first);
    expect(server.grants).toEqual(["password", "refresh_token"]);
  });

  test("renews a short-lived token at half its lifetime rather than on every call", async () => {
    const { auth, server, clock } = await setup({ expiresInS: 40 });
    const first = await auth.authorize();
    clock.ms += 19_000;
    await expect(auth.authorize()).resolves.toBe(first);
    clock.ms += 2_000;
    await expect(auth.authorize()).resolves.not.toBe(first);
    expect(server.grants).toEqual(["password", "refresh_token"]);
  });

  test("shares one login among concurrent callers", async () => {
    const { auth, server } = await setup();
    server.controls.responseDelayMs = 20;
    const bearers = await Promise.all(Array.from({ length: 8 }, () => auth.authorize()));
    expect(new Set(bearers).size).toBe(1);
    expect(server.grants).toEqual(["password"]);
  });

  test("shares one refresh among concurrent 401s, and hands out the new token", async () => {
    const { auth, server } = await setup();
    const first = await auth.authorize();
    server.controls.responseDelayMs = 20;
    await expect(Promise.all(Array.from({ length: 5 }, () => auth.onUnauthorized()))).resolves.toEqual([true, true, true, true, true]);
    expect(server.grants).toEqual(["password", "refresh_token"]);
    await expect(auth.authorize()).resolves.not.toBe(first);
  });

  test("lets one caller give up without cancelling the login the others wait for", async () => {
    const { auth, server } = await setup();
    server.controls.responseDelayMs = 50;
    const impatient = new AbortController();
    const abandoned = auth.authorize(impatient.signal);
    const patient = auth.authorize();
    impatient.abort(new Error("gave up"));

    await expect(abandoned).rejects.toThrow("gave up");
    await expect(patient).resolves.toMatch(/^Bearer access-/);
    expect(server.grants).toEqual(["password"]);
  });

  test("keeps a token answered without `expires_in` however long, and renews it after a 401 with the refresh token", async () => {
    const { auth, server, clock } = await setup({ tokenOmits: ["expires_in"] });
    const first = await auth.authorize();
    clock.ms += 30 * 24 * HOUR_MS;
    await expect(auth.authorize()).resolves.toBe(first);
    expect(server.grants).toEqual(["password"]);

    await expect(auth.onUnauthorized()).resolves.toBe(true);
    expect(server.grants).toEqual(["password", "refresh_token"]);
    await expect(auth.authorize()).resolves.not.toBe(first);
  });

  test("renews a token answered without `refresh_token` by a new password grant, before expiry and after a 401", async () => {
    const { auth, server, clock } = await setup({ tokenOmits: ["refresh_token"] });
    const first = await auth.authorize();
    clock.ms += HOUR_MS - 29_000;
    const second = await auth.authorize();
    expect(second).not.toBe(first);
    expect(server.grants).toEqual(["password", "password"]);

    await expect(auth.onUnauthorized()).resolves.toBe(true);
    expect(server.grants).toEqual(["password", "password", "password"]);
    await expect(auth.authorize()).resolves.not.toBe(second);
  });

  test("turns a 422 into a permanent, credential-free error, even when the server quotes the request", async () => {
    const { auth, server, logs } = await setup();
    server.controls.rejectPasswordLogins = true;
    server.controls.echoRejectedLogins = true;
    const failure = await auth.authorize().catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(HttpError);
    if (!(failure instanceof HttpError)) return;
    expect(failure).toMatchObject({ status: 422, transient: false, cause: undefined });
    expect(failure.message).toContain(CREDENTIALS_REJECTED_MESSAGE);
    // The PIM's own words stay (they say what is wrong), the credentials do not: the user name
    // is one of them (it names the account to attack).
    expect(failure.message).toContain('"grant_type\\":\\"password\\"');
    const basic = Buffer.from(`${CREDENTIALS.clientId}:${CREDENTIALS.secret}`).toString("base64");
    for (const secret of [CREDENTIALS.username, CREDENTIALS.password, CREDENTIALS.secret, basic]) {
      expect(failure.message).not.toContain(secret);
      expect(failure.bodyExcerpt).not.toContain(secret);
      expect(logs()).not.toContain(secret);
    }
    expect(server.grants).toEqual(["password"]);
  });
});

describe("a PIM whose token answers hold nothing but the token", () => {
  test("the client reads with it until a request answers 401, logs in again with the password, and the request succeeds", async () => {
    const harness = closeAfter(await startPimHarness({}, { tokenOmits: ["expires_in", "refresh_token"] }));
    const entities = await harness.client.listReferenceEntities();
    expect(entities).not.toEqual([]);
    const pages = harness.server.restRequests("reference-entities").length;
    harness.server.expireAccessTokens();
    await expect(harness.client.listReferenceEntities()).resolves.toEqual(entities);
    expect(harness.server.grants).toEqual(["password", "password"]);
    const bearers = harness.server.restRequests("reference-entities").map((request) => request.authorization);
    // The second read's first request was refused (the expired token), then sent again with the new one.
    expect(bearers).toHaveLength(2 * pages + 1);
    expect(new Set(bearers.slice(0, pages + 1)).size).toBe(1);
    expect(new Set(bearers.slice(pages + 1)).size).toBe(1);
    expect(bearers[pages + 1]).not.toBe(bearers[0]);
  });
});
