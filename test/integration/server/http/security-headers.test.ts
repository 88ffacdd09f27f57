import { describe, expect } from "vitest";
import { queueNameOf } from "../../../../src/infra/redis/queue-names.js";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import { testConfigObject } from "../../../support/process-config.js";
import { basicAuth, rawRequest, type RawAnswer } from "../../../support/raw-http.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { test, type PimSyncFixtures } from "../../../support/fixtures.js";

const TRIGGER_TOKEN = "headers-test-trigger-token-0123";
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin" } as const;

function directives(answer: RawAnswer): Map<string, string> {
  const header = answer.headers["content-security-policy"];
  expect(typeof header, "a Content-Security-Policy header").toBe("string");
  return new Map(
    String(header)
      .split(";")
      .map((part) => part.trim())
      .filter((part) => part !== "")
      .map((part) => [part.split(/\s+/)[0] ?? "", part.split(/\s+/).slice(1).join(" ")]),
  );
}

function expectCommonHeaders(answer: RawAnswer, what: string): void {
  expect(answer.headers["x-frame-options"], what).toBe("DENY");
  expect(answer.headers["x-content-type-options"], what).toBe("nosniff");
  expect(answer.headers["cache-control"], what).toBe("no-store");
  expect(answer.headers["referrer-policy"], what).toBe("no-referrer");
  expect(directives(answer).get("frame-ancestors"), what).toBe("'none'");
}

describe("security headers on every answer (real worker, real HTTP)", () => {
  let worker: AppWorker | undefined;

  let fixtures: Pick<PimSyncFixtures, "sims" | "redis" | "workers">;

  test.beforeEach(({ sims, redis, workers }) => {
    fixtures = { sims, redis, workers };
  });
  test("the dashboard and admin API: no framing, nosniff, no-store, and a CSP of its own scripts only; the rest of the server: a CSP that loads nothing", async () => {
    const config = testConfigObject({
      pimUrl: fixtures.sims.pim.url,
      serviceUrl: fixtures.sims.service.url,
      redisPrefix: fixtures.redis.prefix,
      trigger: { token: TRIGGER_TOKEN },
    });
    const server = { host: "127.0.0.1", port: 0, admin: { users: [ADMIN] } };
    worker = fixtures.workers.keep(
      await startAppWorker({
        settings: parseSettings(JSON.stringify({ ...config, server }), "headers-test-config", {}),
        logger: silentLogger(),
      }),
    );
    const url = worker.serverUrl ?? "";
    const admin = basicAuth(ADMIN.name, ADMIN.password);

    const page = await rawRequest(url, { path: "/admin", headers: admin });
    expect(page.status).toBe(200);
    const script = /<script defer src="(static\/js\/[^"]+)"/.exec(page.text)?.[1];
    expect(script, "the page's first script").toBeDefined();
    const dashboard: [string, RawAnswer][] = [
      ["GET /admin", page],
      ["GET /admin/queue/:name", await rawRequest(url, { path: `/admin/queue/${queueNameOf(67)}`, headers: admin })],
      ["GET /admin/static/...", await rawRequest(url, { path: `/admin/${script ?? ""}`, headers: admin })],
      ["GET /admin/api/queues", await rawRequest(url, { path: "/admin/api/queues", headers: admin })],
      ["GET /admin/api/jobs", await rawRequest(url, { path: "/admin/api/jobs", headers: admin })],
      ["GET /admin without credentials (401)", await rawRequest(url, { path: "/admin" })],
      [
        "PUT /admin/api/queues/:name/obliterate (403)",
        await rawRequest(url, { method: "PUT", path: `/admin/api/queues/${queueNameOf(67)}/obliterate`, headers: admin }),
      ],
      ["GET /admin/nothing (404)", await rawRequest(url, { path: "/admin/nothing", headers: admin })],
    ];
    expect(dashboard.map(([what, answer]) => `${what}: ${answer.status}`)).toEqual([
      "GET /admin: 200",
      "GET /admin/queue/:name: 200",
      "GET /admin/static/...: 200",
      "GET /admin/api/queues: 200",
      "GET /admin/api/jobs: 200",
      "GET /admin without credentials (401): 401",
      "PUT /admin/api/queues/:name/obliterate (403): 403",
      "GET /admin/nothing (404): 404",
    ]);
    for (const [what, answer] of dashboard) {
      expectCommonHeaders(answer, what);
      const csp = directives(answer);
      expect(csp.get("default-src"), what).toBe("'self'");
      expect(csp.get("script-src"), what).toBe("'self'");
      expect(csp.get("object-src"), what).toBe("'none'");
      expect(csp.has("upgrade-insecure-requests"), what).toBe(false);
    }

    const rest: [string, RawAnswer][] = [
      ["GET /healthz", await rawRequest(url, { path: "/healthz" })],
      ["POST /v1/sync without a token (401)", await rawRequest(url, { method: "POST", path: "/v1/sync", body: { project: 67 } })],
      ["GET /metrics", await rawRequest(url, { path: "/metrics" })],
      ["GET /nothing (404)", await rawRequest(url, { path: "/nothing" })],
    ];
    expect(rest.map(([what, answer]) => `${what}: ${answer.status}`)).toEqual([
      "GET /healthz: 200",
      "POST /v1/sync without a token (401): 401",
      "GET /metrics: 200",
      "GET /nothing (404): 404",
    ]);
    for (const [what, answer] of rest) {
      expectCommonHeaders(answer, what);
      expect(directives(answer).get("default-src"), what).toBe("'none'");
    }
    expect(page.headers["strict-transport-security"]).toBeUndefined();
  });
});
