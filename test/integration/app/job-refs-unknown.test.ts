import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobQueues } from "../../../src/jobs/queues/job-queues.js";
import { startSimulators, type RunningSimulators } from "../../../sim/start-simulators.js";
import { assertCliBuilt, killLeftoverProcesses, servingUrlOf, spawnCli, waitForExit, type CliProcess } from "../../support/process-cli.js";
import { writeTestConfig } from "../../support/process-config.js";
import { openTestQueues } from "../../support/process-jobs.js";
import { createConfigSafeTestRedis } from "../../support/process-redis.js";
import type { TestRedis } from "../../support/redis.js";
import { createTriggerClient } from "../../support/trigger-client.js";

const TOKEN = "trigger-token-of-the-job-ref-test";
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin", token: "ada-script-token-0123456789" } as const;

describe("pim-sync worker as a process: job references that name no configured project, or nothing at all", () => {
  let sims: RunningSimulators;
  let redis: TestRedis;
  let queues: JobQueues;
  let dir: string;
  let worker: CliProcess;
  let baseUrl = "";
  let queuedRef = "";
  const client = createTriggerClient(() => baseUrl);

  beforeAll(async () => {
    assertCliBuilt();
    sims = await startSimulators();
    redis = await createConfigSafeTestRedis();
    queues = openTestQueues(redis);
    // A job that exists, for contrast; it stays waiting (the queue is paused).
    await queues.queueFor(67).pause();
    queuedRef = `67/${(await queues.enqueue("sync.run", { project: 67 })).jobId}`;
    dir = await mkdtemp(join(tmpdir(), "pim-sync-job-refs-"));
    const configPath = await writeTestConfig(dir, {
      pimUrl: sims.pim.url,
      serviceUrl: sims.service.url,
      redisPrefix: redis.prefix,
      logLevel: "info",
      trigger: { token: TOKEN },
      server: { host: "127.0.0.1", port: 0, admin: { users: [ADMIN] } },
    });
    worker = spawnCli(["worker", "--config", configPath]);
    baseUrl = await servingUrlOf(worker);
  });

  afterAll(async () => {
    worker.signal("SIGTERM");
    await waitForExit(worker, 30_000);
    await killLeftoverProcesses();
    await queues.close();
    await sims.close();
    await redis.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  const trigger = (path: string) => client.call(path, { token: TOKEN });
  const admin = (path: string, method = "GET") => client.call(path, { token: ADMIN.token, method });

  it("GET /v1/jobs for a project not in the config answers 404, as for an unknown job; a job that exists answers 200", async () => {
    expect(await trigger(`/v1/jobs/${queuedRef}`)).toMatchObject({ status: 200, json: { job_id: queuedRef, state: "waiting" } });
    expect(await trigger("/v1/jobs/99/1")).toMatchObject({ status: 404, json: { error: "no job 99/1" } });
    expect(await trigger("/v1/jobs/67/999999")).toMatchObject({ status: 404, json: { error: "no job 67/999999" } });
    expect(await trigger("/v1/jobs/123456789012345678901234567890/1")).toMatchObject({ status: 404 });
    // No `activation` section: the Activation queue holds nothing here.
    expect(await trigger("/v1/jobs/activation/1")).toMatchObject({ status: 404 });
  });

  it("GET /v1/jobs with a malformed project or id answers 400 naming the reference", async () => {
    for (const path of ["/v1/jobs/abc/1", "/v1/jobs/-1/1", "/v1/jobs/67/a%20b", "/v1/jobs/67/%2F", "/v1/jobs/1.5/2"]) {
      const answer = await trigger(path);
      expect(answer.status, path).toBe(400);
      expect(answer.json, path).toEqual({ errors: [expect.stringMatching(/^job: '.*' is not a job reference/)] });
    }
  });

  it("the admin API: show and retry for a project not in the config answer 404; malformed references 400; retry-failed of an unknown project 400", async () => {
    expect(await admin("/admin/api/jobs/99/1")).toMatchObject({ status: 404, json: { error: "project 99 is not configured" } });
    expect(await admin("/admin/api/jobs/99/1/retry", "POST")).toMatchObject({
      status: 404,
      json: { error: "project 99 is not configured" },
    });
    expect(await admin("/admin/api/jobs/activation/1/retry", "POST")).toMatchObject({ status: 404 });
    expect(await admin("/admin/api/jobs/abc/1")).toMatchObject({
      status: 400,
      json: { errors: [expect.stringMatching(/^job: 'abc\/1' is not a job reference/)] },
    });
    expect(await admin("/admin/api/jobs/abc/1/retry", "POST")).toMatchObject({ status: 400 });
    expect(await admin("/admin/api/jobs/retry-failed?project=99", "POST")).toMatchObject({
      status: 400,
      json: { errors: ["project: 99 is not a configured project"] },
    });
    // An unknown job of a configured project is not an error of the request: skipped, as before.
    expect(await admin("/admin/api/jobs/67/999999/retry", "POST")).toMatchObject({
      status: 200,
      json: { ref: "67/999999", outcome: "skipped", reason: "not found" },
    });
  });

  it("none of these answers was a 5xx, and none logged an error", () => {
    expect(client.answers.filter((answer) => answer.status >= 500).map((answer) => answer.text)).toEqual([]);
    expect(worker.logs().filter((line) => typeof line.level === "number" && line.level >= 50)).toEqual([]);
  });
});
