import { describe, expect } from "vitest";
import { createJobQueues, type JobQueues } from "../../../src/jobs/queues/job-queues.js";
import { waitForExit, type CliProcess } from "../../support/process-cli.js";
import { writeTestConfig } from "../../support/process-config.js";
import { waitForJobState } from "../../support/process-jobs.js";
import { waitFor } from "../../support/wait-for.js";
import type { OwnRedisServer } from "../../../testkit/own-redis-server.js";
import { createTriggerClient, type TriggerAnswer } from "../../support/trigger-client.js";
import { Redis } from "ioredis";
import { test } from "../../support/fixtures.js";
import type { ProcessTestFixtures } from "../../support/worker-process.js";

const TOKEN = "redis-away-at-start-token";
const ADMIN = { name: "ops", password: "ops-password-123", role: "admin" } as const;
const PREFIX = "redis-away-at-start";

describe("a worker started while its Redis is away: health answers, the rest waits", () => {
  let fixtures: Pick<ProcessTestFixtures, "cli" | "sims" | "tempDir">;
  let redisServer: OwnRedisServer;
  let serverUrl = "";
  const client = createTriggerClient(() => serverUrl);

  test.beforeEach(async ({ sims, tempDir, ownRedis, cli }) => {
    fixtures = { cli, sims, tempDir };
    // A redis-server of the test's own, started and stopped again: its port is where the
    // worker's Redis will be, and nothing listens there when the worker starts.
    redisServer = await ownRedis.start();
    await redisServer.kill();
  });

  async function startWorker(): Promise<CliProcess> {
    const path = await writeTestConfig(fixtures.tempDir, {
      pimUrl: fixtures.sims.pim.url,
      serviceUrl: fixtures.sims.service.url,
      redisPrefix: PREFIX,
      logLevel: "info",
      trigger: { token: TOKEN },
      server: { host: "127.0.0.1", port: 0, redis_timeout_ms: 500, admin: { users: [ADMIN] } },
      topLevel: { redis: { url: redisServer.url, prefix: PREFIX } },
    });
    const worker = fixtures.cli.spawn(["worker", "--config", path]);
    // The listener is bound to port 0; its URL is read back from the log.
    const listening = await worker.waitForLog((line) => line.msg === "HTTP server listening", 20_000, "'HTTP server listening'");
    serverUrl = String(listening.url);
    return worker;
  }

  const reasonsOf = (answer: TriggerAnswer): string[] => (answer.json as { reasons?: string[] }).reasons ?? [];

  test("/healthz 200 and /readyz 503 naming Redis while it is away; trigger and admin 503 with Retry-After; once Redis starts, ready and a triggered sync runs", async () => {
    const worker = await startWorker();
    await worker.waitForLog((line) => line.msg === "Redis is not answering; reconnecting", 20_000, "a reconnect attempt");

    expect((await client.call("/healthz")).status).toBe(200);
    const notReady = await client.call("/readyz");
    expect(notReady.status).toBe(503);
    expect(reasonsOf(notReady)).toEqual([expect.stringMatching(/^redis: /), expect.stringMatching(/^worker: starting/)]);
    // The gauge the PimSyncWorkerNotReady alert reads says the same as /readyz.
    expect((await client.call("/metrics")).text).toMatch(/^pim_sync_ready 0$/m);

    const sync = await client.call("/v1/sync", { token: TOKEN, body: { project: 67 } });
    expect(sync.status).toBe(503);
    expect(sync.headers.get("retry-after")).toBe("5");
    expect(sync.json).toEqual({ error: "the worker is starting (waiting for Redis); try again" });
    const admin = await client.call("/admin/api/jobs", {
      headers: { authorization: `Basic ${Buffer.from(`${ADMIN.name}:${ADMIN.password}`).toString("base64")}` },
    });
    expect(admin.status).toBe(503);
    expect(admin.headers.get("retry-after")).toBe("5");

    await redisServer.start();
    await waitFor(async () => (await client.call("/readyz")).status === 200, {
      timeoutMs: 30_000,
      what: "/readyz to answer 200 once Redis is up",
    });
    expect(worker.logs().some((line) => line.msg === "worker started")).toBe(true);
    expect((await client.call("/metrics")).text).toMatch(/^pim_sync_ready 1$/m);

    const triggered = await client.call("/v1/sync", { token: TOKEN, body: { project: 67 } });
    expect(triggered.status).toBe(202);
    const jobId = String((triggered.json as { job_id: string }).job_id).split("/")[1] ?? "";
    const connection = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
    const queues: JobQueues = createJobQueues({
      connection,
      prefix: PREFIX,
      projects: [67],
      retention: { keep_completed_days: 7, keep_failed_days: 30 },
    });
    try {
      const job = await waitForJobState(queues, 67, jobId, "completed", 60_000);
      expect(job.returnvalue).toMatchObject({ outcome: "done" });
    } finally {
      await queues.close();
      connection.disconnect();
    }

    worker.signal("SIGTERM");
    expect(await waitForExit(worker, 30_000)).toEqual({ code: 0, signal: null });
  });

  test("SIGTERM while still waiting for Redis: the listener closes and the process exits 0", async () => {
    const worker = await startWorker();
    expect((await client.call("/healthz")).status).toBe(200);

    worker.signal("SIGTERM");
    expect(await waitForExit(worker, 20_000)).toEqual({ code: 0, signal: null });
    expect(worker.logs().some((line) => line.msg === "stopping before the worker started (Redis has not answered yet)")).toBe(true);
    await expect(fetch(`${serverUrl}/healthz`)).rejects.toThrow();
  });
});
