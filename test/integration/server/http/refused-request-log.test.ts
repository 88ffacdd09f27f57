import { describe, expect } from "vitest";
import { createLogger } from "../../../../src/infra/log/create-logger.js";
import { EMPTY_REDACTOR } from "../../../../src/infra/secrets/redactor.js";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import type { RunningSimulators } from "../../../../sim/start-simulators.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import { testConfigObject } from "../../../support/process-config.js";
import type { TestRedis } from "../../../support/redis.js";
import { createTriggerClient } from "../../../support/trigger-client.js";
import { test } from "../../../support/fixtures.js";

const PROJECT = 67;
const TOKEN = "refused-log-trigger-token-0123";

describe("refused requests are logged at warn with the client address, at most one line per address per interval", () => {
  let sims: RunningSimulators;
  let redis: TestRedis;
  let worker: AppWorker | undefined;
  let lines: Record<string, unknown>[];
  const client = createTriggerClient(() => {
    if (!worker?.serverUrl) throw new Error("the worker has no HTTP server");
    return worker.serverUrl;
  });

  test.beforeEach(async ({ sims: simulators, redis: testRedis, workers }) => {
    sims = simulators;
    redis = testRedis;
    lines = [];
    const logger = createLogger({
      level: "info",
      redactor: EMPTY_REDACTOR,
      destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
    const config = testConfigObject({
      pimUrl: sims.pim.url,
      serviceUrl: sims.service.url,
      redisPrefix: redis.prefix,
      trigger: { token: TOKEN },
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color"] },
    });
    // A long interval: every request below falls in the first one.
    const server = { host: "127.0.0.1", port: 0, auth_throttle: { log_interval_ms: 600_000 } };
    worker = workers.keep(
      await startAppWorker({ settings: parseSettings(JSON.stringify({ ...config, server }), "refused-log-config", {}), logger }),
    );
  });

  test("a malformed body: one `bad request refused` line naming the address, route, status and reason; repeats are counted, not written", async () => {
    expect((await client.call("/v1/add-options", { token: TOKEN, body: "{not json" })).status).toBe(400);
    expect(
      (await client.call("/v1/add-options", { token: TOKEN, body: { project: PROJECT, attribute: "color", options: "teal" } })).status,
    ).toBe(400);
    expect((await client.call("/v1/sync", { token: TOKEN, body: "[]", contentType: "text/plain" })).status).toBe(415);

    const refused = lines.filter((line) => line.msg === "bad request refused");
    expect(refused).toEqual([
      expect.objectContaining({
        level: 40,
        ip: "127.0.0.1",
        method: "POST",
        route: "/v1/add-options",
        status: 400,
        problem: "body is not valid JSON",
        suppressed: 0,
      }),
    ]);
  });

  test("a wrong token: `authentication refused` with the address (src/server/auth/), and no bad-request line", async () => {
    expect((await client.call("/v1/sync", { token: "not-the-trigger-token-0000", body: { project: PROJECT } })).status).toBe(401);
    expect(lines.filter((line) => line.msg === "authentication refused")).toEqual([
      expect.objectContaining({ level: 40, surface: "trigger", reason: "invalid", ip: "127.0.0.1" }),
    ]);
    expect(lines.filter((line) => line.msg === "bad request refused")).toEqual([]);
  });
});
