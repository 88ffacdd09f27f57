import { connect, type Socket } from "node:net";
import { once } from "node:events";
import { afterEach, describe, expect } from "vitest";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import type { OwnRedisServer } from "../../../../testkit/own-redis-server.js";
import { testConfigObject } from "../../../support/process-config.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { createTriggerClient } from "../../../support/trigger-client.js";
import { waitFor } from "../../../support/wait-for.js";
import { test, type PimSyncFixtures } from "../../../support/fixtures.js";

const TOKEN = "server-test-token-0123456789";

describe("the worker's HTTP server: health, readiness, limits", () => {
  let redis: OwnRedisServer | undefined;
  let worker: AppWorker | undefined;
  const sockets: Socket[] = [];
  const client = createTriggerClient(() => {
    if (!worker?.serverUrl) throw new Error("the worker has no HTTP server");
    return worker.serverUrl;
  });

  let fixtures: Pick<PimSyncFixtures, "sims" | "ownRedis" | "workers">;

  test.beforeEach(({ sims, ownRedis, workers }) => {
    fixtures = { sims, ownRedis, workers };
  });
  // Raw client sockets, destroyed before the fixtures stop the worker (hooks run before fixture
  // teardown): a connection left open would keep its server's close waiting.
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
  });

  /** A worker on a redis-server of the test's own (so the test may stop it), with `server` settings. */
  async function start(server: Record<string, unknown>): Promise<AppWorker> {
    redis = await fixtures.ownRedis.start();
    const config = testConfigObject({
      pimUrl: fixtures.sims.pim.url,
      serviceUrl: fixtures.sims.service.url,
      redisPrefix: "server-test",
      trigger: { token: TOKEN },
    });
    const settings = parseSettings(
      JSON.stringify({
        ...config,
        redis: { url: redis.url, prefix: "server-test", connect_timeout_ms: 500 },
        server: { host: "127.0.0.1", port: 0, ...server },
      }),
      "server-test-config",
      {},
    );
    worker = fixtures.workers.keep(await startAppWorker({ settings, logger: silentLogger() }));
    return worker;
  }

  function rawConnection(url: string): Promise<Socket> {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    sockets.push(socket);
    return once(socket, "connect").then(() => socket);
  }

  /** Everything the server sends on `socket` until it closes it. */
  async function untilClosed(socket: Socket): Promise<string> {
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("utf8")));
    await once(socket, "close");
    return received;
  }

  test("/healthz and /readyz answer 200; with its Redis stopped /readyz answers 503 naming Redis and a trigger call 503 instead of hanging", async () => {
    await start({ redis_timeout_ms: 500 });
    expect((await client.call("/healthz")).status).toBe(200);
    const ready = await client.call("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ status: "ready" });

    await redis?.kill();
    const notReady = await waitFor(
      async () => {
        const answer = await client.call("/readyz");
        return answer.status === 503 ? answer : null;
      },
      { timeoutMs: 10_000, what: "/readyz to answer 503" },
    );
    const body = notReady.json as { status: string; reasons: string[] };
    expect(body.status).toBe("not ready");
    expect(
      body.reasons.some((reason) => reason.startsWith("redis: ")),
      notReady.text,
    ).toBe(true);
    expect((await client.call("/healthz")).status).toBe(200);

    const sync = await client.call("/v1/sync", { token: TOKEN, body: { project: 67 } });
    expect(sync.status).toBe(503);
    expect(sync.text).toMatch(/Redis did not answer within 500 ms/);
    expect(sync.headers.get("retry-after")).toBe("5");

    await redis?.start();
    await waitFor(async () => (await client.call("/readyz")).status === 200, { timeoutMs: 15_000, what: "/readyz to answer 200 again" });
  });

  test("a client that does not finish its headers in time is answered 408 and disconnected", async () => {
    const running = await start({ headers_timeout_ms: 300, request_timeout_ms: 600 });
    const socket = await rawConnection(running.serverUrl ?? "");
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n");
    const received = await untilClosed(socket);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  test("closes connections beyond server.max_connections at once, and serves again when one ends", async () => {
    const running = await start({ max_connections: 2 });
    const url = running.serverUrl ?? "";
    const first = await rawConnection(url);
    await rawConnection(url);
    const third = await rawConnection(url);
    third.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(await untilClosed(third)).toBe("");

    first.destroy();
    await waitFor(async () => (await client.call("/healthz")).status === 200, {
      timeoutMs: 5_000,
      what: "/healthz once a connection was freed",
    });
  });
});
