/**
 * Failed logins over real HTTP against the real worker: after `max_failures` wrong credentials
 * from one client address, or for one user name, the next attempt is answered 429 with
 * Retry-After even with the right credentials. Clients are told apart by their loopback source
 * address (127.0.0.x), as the server sees them.
 */
import { describe, expect } from "vitest";
import { createLogger } from "../../../../src/infra/log/create-logger.js";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import { testConfigObject } from "../../../support/process-config.js";
import { basicAuth, rawRequest, type RawAnswer } from "../../../support/raw-http.js";
import { EMPTY_REDACTOR } from "../../../../src/infra/secrets/redactor.js";
import { test, type PimSyncFixtures } from "../../../support/fixtures.js";

const MAX_FAILURES = 3;
const WINDOW_MS = 600_000;
const TRIGGER_TOKEN = "throttle-test-trigger-token-0123";
const METRICS_TOKEN = "throttle-test-metrics-token-0123";
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin", token: "ada-script-token-0123456789" } as const;
const VIEWER = { name: "vic", password: "vic-password-0123", role: "viewer" } as const;
const SECRETS = [TRIGGER_TOKEN, METRICS_TOKEN, ADMIN.password, ADMIN.token, VIEWER.password];

/** The value of one sample line (`name{labels} value`) of a scrape, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function expectThrottled(answer: RawAnswer, what: string): void {
  expect(answer.status, `${what}: ${answer.text}`).toBe(429);
  const retryAfter = Number(answer.headers["retry-after"]);
  expect(retryAfter, `${what}: Retry-After`).toBeGreaterThanOrEqual(1);
  expect(retryAfter, `${what}: Retry-After`).toBeLessThanOrEqual(WINDOW_MS / 1000);
}

describe("failed logins are throttled per client address and per user name (admin, trigger, metrics)", () => {
  let worker: AppWorker | undefined;
  const lines: string[] = [];

  let fixtures: Pick<PimSyncFixtures, "sims" | "redis" | "workers">;

  test.beforeEach(({ sims, redis, workers }) => {
    fixtures = { sims, redis, workers };
  });

  async function start(): Promise<string> {
    lines.length = 0;
    const config = testConfigObject({
      pimUrl: fixtures.sims.pim.url,
      serviceUrl: fixtures.sims.service.url,
      redisPrefix: fixtures.redis.prefix,
      logLevel: "info",
      trigger: { token: TRIGGER_TOKEN },
    });
    const server = {
      host: "127.0.0.1",
      port: 0,
      metrics_token: METRICS_TOKEN,
      auth_throttle: { max_failures: MAX_FAILURES, window_ms: WINDOW_MS, log_interval_ms: 600_000 },
      admin: { users: [ADMIN, VIEWER] },
    };
    const logger = createLogger({
      level: "info",
      redactor: EMPTY_REDACTOR,
      destination: { write: (line: string) => void lines.push(line) },
    });
    worker = fixtures.workers.keep(
      await startAppWorker({ settings: parseSettings(JSON.stringify({ ...config, server }), "throttle-test-config", {}), logger }),
    );
    return worker.serverUrl ?? "";
  }

  test("admin: per address, per user name; right logins do not count; one warning per address; the metric counts every refusal", async () => {
    const url = await start();
    const jobs = (from: string, user: { name: string; password: string }): Promise<RawAnswer> =>
      rawRequest(url, { path: "/admin/api/jobs", localAddress: from, headers: basicAuth(user.name, user.password) });

    // Per address: wrong passwords for names that are no user, all from 127.0.0.1.
    for (let i = 1; i <= MAX_FAILURES; i += 1)
      expect((await jobs("127.0.0.1", { name: `guess${i}`, password: "wrong-password-000" })).status).toBe(401);
    expectThrottled(await jobs("127.0.0.1", ADMIN), "the right password from the throttled address");
    expectThrottled(
      await rawRequest(url, { path: "/admin/api/jobs", localAddress: "127.0.0.1", headers: { authorization: `Bearer ${ADMIN.token}` } }),
      "a user's token from the throttled address",
    );
    expect((await jobs("127.0.0.2", ADMIN)).status).toBe(200);

    // Per user name: wrong passwords for vic, each from another address.
    for (let i = 1; i <= MAX_FAILURES; i += 1)
      expect((await jobs(`127.0.0.${10 + i}`, { name: VIEWER.name, password: "wrong-password-000" })).status).toBe(401);
    expectThrottled(await jobs("127.0.0.20", VIEWER), "vic's right password from a fresh address");
    expect((await jobs("127.0.0.20", ADMIN)).status).toBe(200);

    // Right logins are not counted: more of them than the limit, then fewer failures than it.
    for (let i = 0; i < MAX_FAILURES + 2; i += 1) expect((await jobs("127.0.0.30", ADMIN)).status).toBe(200);
    for (let i = 1; i < MAX_FAILURES; i += 1)
      expect((await jobs("127.0.0.30", { name: ADMIN.name, password: "wrong-password-000" })).status).toBe(401);
    expect((await jobs("127.0.0.30", ADMIN)).status).toBe(200);

    const records = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => record.msg === "authentication refused");
    const fromFirst = records.filter((record) => record.ip === "127.0.0.1");
    // Five refusals from 127.0.0.1 (three wrong, two throttled): one line within the interval.
    expect(fromFirst).toEqual([
      expect.objectContaining({ level: 40, surface: "admin", reason: "invalid", ip: "127.0.0.1", user: "guess1", suppressed: 0 }),
    ]);
    expect(records.filter((record) => record.ip === "127.0.0.11")).toEqual([
      expect.objectContaining({ surface: "admin", reason: "invalid", user: VIEWER.name }),
    ]);
    expect(records.filter((record) => record.ip === "127.0.0.20")).toEqual([
      expect.objectContaining({ surface: "admin", reason: "throttled", user: VIEWER.name }),
    ]);
    const all = lines.join("");
    for (const secret of [...SECRETS, "wrong-password-000"]) expect(all.includes(secret), `the logs contain '${secret}'`).toBe(false);

    const scrape = await rawRequest(url, {
      path: "/metrics",
      localAddress: "127.0.0.40",
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scrape.status).toBe(200);
    expect(sample(scrape.text, 'pim_sync_auth_refused_total{surface="admin",reason="invalid"}')).toBe(2 * MAX_FAILURES + MAX_FAILURES - 1);
    expect(sample(scrape.text, 'pim_sync_auth_refused_total{surface="admin",reason="throttled"}')).toBe(3);
    expect(sample(scrape.text, 'pim_sync_auth_refused_total{surface="trigger",reason="invalid"}')).toBe(0);
  });

  test("the trigger token and the metrics token: per address, 429 with Retry-After even with the right token, counted by surface", async () => {
    const url = await start();
    const trigger = (from: string, token: string): Promise<RawAnswer> =>
      rawRequest(url, { path: "/v1/jobs/67/999999", localAddress: from, headers: { authorization: `Bearer ${token}` } });
    const scrape = (from: string, token: string): Promise<RawAnswer> =>
      rawRequest(url, { path: "/metrics", localAddress: from, headers: { authorization: `Bearer ${token}` } });

    for (let i = 0; i < MAX_FAILURES; i += 1) expect((await trigger("127.0.0.1", `${TRIGGER_TOKEN}x`)).status).toBe(401);
    expectThrottled(await trigger("127.0.0.1", TRIGGER_TOKEN), "the right trigger token from the throttled address");
    expectThrottled(
      await rawRequest(url, {
        method: "POST",
        path: "/v1/sync",
        localAddress: "127.0.0.1",
        headers: { authorization: `Bearer ${TRIGGER_TOKEN}` },
        body: { project: 67 },
      }),
      "POST /v1/sync from the throttled address",
    );
    expect((await trigger("127.0.0.2", TRIGGER_TOKEN)).status).toBe(404);
    // The surfaces throttle apart: a script's stale trigger token does not lock out the scraper.
    expect((await scrape("127.0.0.1", METRICS_TOKEN)).status).toBe(200);

    for (let i = 0; i < MAX_FAILURES; i += 1) expect((await scrape("127.0.0.3", `${METRICS_TOKEN}x`)).status).toBe(401);
    expectThrottled(await scrape("127.0.0.3", METRICS_TOKEN), "the right metrics token from the throttled address");
    const text = (await scrape("127.0.0.4", METRICS_TOKEN)).text;
    expect(sample(text, 'pim_sync_auth_refused_total{surface="trigger",reason="invalid"}')).toBe(MAX_FAILURES);
    expect(sample(text, 'pim_sync_auth_refused_total{surface="trigger",reason="throttled"}')).toBe(2);
    expect(sample(text, 'pim_sync_auth_refused_total{surface="metrics",reason="invalid"}')).toBe(MAX_FAILURES);
    expect(sample(text, 'pim_sync_auth_refused_total{surface="metrics",reason="throttled"}')).toBe(1);

    const records = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => record.msg === "authentication refused");
    expect(records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: 40, surface: "trigger", reason: "invalid", ip: "127.0.0.1" }),
        expect.objectContaining({ level: 40, surface: "metrics", reason: "invalid", ip: "127.0.0.3" }),
      ]),
    );
    const all = lines.join("");
    for (const secret of SECRETS) expect(all.includes(secret), `the logs contain '${secret}'`).toBe(false);
  });
});
