import { describe, expect } from "vitest";
import { HttpError } from "../../../../src/infra/http/http-error.js";
import { CREDENTIALS_REJECTED_MESSAGE } from "../../../../src/upstreams/pim/pim-auth.js";
import { CREDENTIALS, startPimHarness, type PimHarness } from "./start-pim-client.js";
import { test, type PimSyncFixtures } from "../../../support/fixtures.js";

const BLACK = "attributes/color/options/black";
const BLACK_OPTION = { code: "black", labels: { en_US: "Black", fr_FR: "Noir" } };

let closeAfter: PimSyncFixtures["closeAfter"];
test.beforeEach(({ closeAfter: keeper }) => {
  closeAfter = keeper;
});

async function start(...args: Parameters<typeof startPimHarness>): Promise<PimHarness> {
  return closeAfter(await startPimHarness(...args));
}

function gapMs(requests: readonly { atMs: number }[]): number {
  const [first, second] = requests;
  if (!first || !second) throw new Error(`expected two requests, got ${requests.length}`);
  return second.atMs - first.atMs;
}

describe("authentication", () => {
  test("on a 401, refreshes the token and retries the request once", async () => {
    const { client, server } = await start();
    await client.getAttributeOption("color", "black");
    server.expireAccessTokens();

    await expect(client.getAttributeOption("color", "black")).resolves.toEqual(BLACK_OPTION);
    expect(server.grants).toEqual(["password", "refresh_token"]);
    const [first, rejected, retried] = server.restRequests(BLACK);
    expect(rejected?.authorization).toBe(first?.authorization);
    expect(retried?.authorization).not.toBe(rejected?.authorization);
    // A token renewal is not a retry of a failing upstream.
    expect(client.stats.retries).toBe(0);
  });

  test("logs in with the password again when the refresh token is refused", async () => {
    const { client, server } = await start();
    await client.getAttributeOption("color", "black");
    server.expireAccessTokens();
    server.controls.rejectRefreshTokens = true;

    await expect(client.getAttributeOption("color", "black")).resolves.toEqual(BLACK_OPTION);
    expect(server.grants).toEqual(["password", "refresh_token", "password"]);
  });

  test("reports rejected credentials (422) as a permanent error, once for all concurrent reads", async () => {
    const { client, server } = await start();
    server.controls.rejectPasswordLogins = true;
    const failure = await client.readStructure().catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(HttpError);
    expect(failure).toMatchObject({ status: 422, transient: false });
    expect(failure instanceof Error ? failure.message : "").toContain(CREDENTIALS_REJECTED_MESSAGE);
    expect(server.grants).toEqual(["password"]);
    expect(server.requests.filter((request) => request.path.startsWith("/api/rest/"))).toEqual([]);
  });

  test("sends the client id and secret as Basic and the grant as JSON", async () => {
    const { client, server } = await start();
    await client.getAttributeOption("color", "black");
    const [login] = server.requests;
    expect(login?.authorization).toBe(`Basic ${Buffer.from(`${CREDENTIALS.clientId}:${CREDENTIALS.secret}`).toString("base64")}`);
    expect(login?.contentType).toBe("application/json");
    const grant: unknown = JSON.parse(login?.body ?? "null");
    expect(grant).toEqual({ grant_type: "password", username: CREDENTIALS.username, password: CREDENTIALS.password });
  });
});

describe("transient failures", () => {
  test("waits for Retry-After on a 429 before trying again", async () => {
    const { client, server } = await start();
    server.failNext(BLACK, { status: 429, retryAfter: "0.3" });

    await expect(client.getAttributeOption("color", "black")).resolves.toEqual(BLACK_OPTION);
    expect(gapMs(server.restRequests(BLACK))).toBeGreaterThanOrEqual(295);
    expect(client.stats).toMatchObject({ rateLimited: 1, retries: 1, failures: 0 });
  });

  test("backs off on a 429 without Retry-After", async () => {
    const { client, server } = await start();
    server.failNext(BLACK, { status: 429 });

    await expect(client.getAttributeOption("color", "black")).resolves.toEqual(BLACK_OPTION);
    // random() = 0.5 and baseDelayMs = 10: the first backoff is max(10 / 2, 10 * 0.5) = 5 ms.
    expect(gapMs(server.restRequests(BLACK))).toBeGreaterThanOrEqual(4);
    expect(client.stats).toMatchObject({ rateLimited: 1, retries: 1 });
  });

  test("retries a 503 until it succeeds", async () => {
    const { client, server } = await start();
    server.failNext(BLACK, { status: 503 }, 2);

    await expect(client.getAttributeOption("color", "black")).resolves.toEqual(BLACK_OPTION);
    expect(server.restRequests(BLACK)).toHaveLength(3);
    expect(client.stats).toMatchObject({ retries: 2, failures: 0 });
  });

  test("gives up after maxAttempts with a transient HttpError carrying the status", async () => {
    const { client, server } = await start();
    server.failNext(BLACK, { status: 503 }, 10);
    const failure = await client.getAttributeOption("color", "black").catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(HttpError);
    expect(failure).toMatchObject({ status: 503, transient: true, code: "HTTP_STATUS" });
    expect(server.restRequests(BLACK)).toHaveLength(4);
    expect(client.stats).toMatchObject({ retries: 3, failures: 1 });
  });

  test("abandons an answer that does not come within the timeout and tries again", async () => {
    const { client, server } = await start({ timeoutMs: 200 });
    server.failNext(BLACK, { hang: true });

    await expect(client.getAttributeOption("color", "black")).resolves.toEqual(BLACK_OPTION);
    expect(server.restRequests(BLACK)).toHaveLength(2);
    expect(client.stats.retries).toBe(1);
  });

  test("retries an idempotent upsert on a 503", async () => {
    const { client, server } = await start();
    server.failNext("attributes/material/options", { status: 503 });

    await expect(client.upsertAttributeOptions("material", [{ code: "wood", labels: { en_US: "Wood" } }])).resolves.toEqual([
      { code: "wood", status: 201 },
    ]);
    expect(server.restRequests("attributes/material/options")).toHaveLength(2);
  });
});

describe("secrets", () => {
  test("never puts the secret, the password or a token into a log line or an error", async () => {
    const { client, server, logs } = await start({ timeoutMs: 200 });
    const failures: unknown[] = [];
    await client.readStructure();
    server.expireAccessTokens();
    await client.getAttributeOption("color", "black"); // refresh grant
    server.expireAccessTokens();
    server.controls.rejectRefreshTokens = true;
    await client.getAttributeOption("color", "black"); // refused refresh, password login
    server.failNext(BLACK, { status: 503 }, 4); // every attempt of one request
    failures.push(await client.getAttributeOption("color", "black").catch((error: unknown) => error));
    server.failNext("/api/oauth/v1/token", { status: 503 }, 4); // every attempt of one refresh
    server.expireAccessTokens();
    failures.push(await client.getAttributeOption("color", "black").catch((error: unknown) => error));
    server.controls.rejectPasswordLogins = true;
    server.expireAccessTokens();
    failures.push(await client.getAttributeOption("color", "black").catch((error: unknown) => error));

    expect(failures.map((failure) => (failure instanceof HttpError ? failure.status : failure))).toEqual([503, 503, 422]);
    // Login, refresh, refused refresh + login, (4 token calls answered 503), refused refresh + refused login.
    expect(server.grants).toEqual(["password", "refresh_token", "refresh_token", "password", "refresh_token", "password"]);
    expect(server.requests.filter((request) => request.path === "/api/oauth/v1/token")).toHaveLength(10);
    const written = [
      logs(),
      ...failures.map((failure) =>
        failure instanceof Error ? `${failure.message}\n${failure.stack ?? ""}\n${String(failure.cause)}` : String(failure),
      ),
    ].join("\n");
    expect(logs()).toContain("PIM access token obtained");
    const basic = Buffer.from(`${CREDENTIALS.clientId}:${CREDENTIALS.secret}`).toString("base64");
    const secrets = [CREDENTIALS.secret, CREDENTIALS.password, basic, ...server.issuedTokens];
    expect(server.issuedTokens.length).toBeGreaterThanOrEqual(6);
    for (const secret of secrets) expect(written).not.toContain(secret);
  });
});
