import { describe, expect } from "vitest";
import { queueNameOf } from "../../../../src/infra/redis/queue-names.js";
import { createLogger } from "../../../../src/infra/log/create-logger.js";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import { SIM_SECRETS, testConfigObject } from "../../../support/process-config.js";
import { waitForJobState } from "../../../support/process-jobs.js";
import { waitFor } from "../../../support/wait-for.js";
import { createTriggerClient } from "../../../support/trigger-client.js";
import { EMPTY_REDACTOR } from "../../../../src/infra/secrets/redactor.js";
import { test, type PimSyncFixtures } from "../../../support/fixtures.js";

const PROJECT = 67;
const TRIGGER_TOKEN = "log-test-trigger-token-0123";
const METRICS_TOKEN = "log-test-metrics-token-0123";
const ADMIN = { name: "ada", password: "ada-password-secret-0123", role: "admin", token: "ada-script-token-secret-0123" } as const;
/** A second project logs in to the service with a password the simulator refuses. */
const OTHER_PROJECT = 99;
const WRONG_SERVICE_PASSWORD = "wrong-service-password-0123";
const SECRETS = [...SIM_SECRETS, TRIGGER_TOKEN, METRICS_TOKEN, ADMIN.password, ADMIN.token, WRONG_SERVICE_PASSWORD];

describe("worker logs (every level): one child logger per job, and no configured secret anywhere", () => {
  let worker: AppWorker | undefined;

  test.override("queueProjects", [PROJECT, OTHER_PROJECT]);
  let fixtures: Pick<PimSyncFixtures, "sims" | "redis" | "queues" | "workers">;

  test.beforeEach(({ sims, redis, queues, workers }) => {
    fixtures = { sims, redis, queues, workers };
  });
  test("a sync, an add-options job and failed logins (admin, trigger, an upstream login) log every job line with its job, name, project and queue, and no secret", async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: "trace",
      redactor: EMPTY_REDACTOR,
      destination: { write: (line: string) => void lines.push(line) },
    });
    const config = testConfigObject({
      pimUrl: fixtures.sims.pim.url,
      serviceUrl: fixtures.sims.service.url,
      redisPrefix: fixtures.redis.prefix,
      logLevel: "trace",
      trigger: { token: TRIGGER_TOKEN },
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color"] },
    });
    const server = { host: "127.0.0.1", port: 0, metrics_token: METRICS_TOKEN, admin: { users: [ADMIN] } };
    const [first] = config.projects as Record<string, unknown>[];
    const other = {
      ...first,
      id: OTHER_PROJECT,
      service: { url: fixtures.sims.service.url, email: "sim@example.com", password: WRONG_SERVICE_PASSWORD, token_name: "pim-sync" },
    };
    const projects = [first, other];
    worker = fixtures.workers.keep(
      await startAppWorker({ settings: parseSettings(JSON.stringify({ ...config, projects, server }), "log-test-config", {}), logger }),
    );
    const client = createTriggerClient(() => worker?.serverUrl ?? "");

    const sync = await client.call("/v1/sync", { token: TRIGGER_TOKEN, body: { project: PROJECT } });
    const syncId = (sync.json as { job_id: string }).job_id.slice(`${PROJECT}/`.length);
    await waitForJobState(fixtures.queues, PROJECT, syncId, "completed", 30_000);
    const add = await client.call("/v1/add-options", {
      token: TRIGGER_TOKEN,
      body: { project: PROJECT, attribute: "color", options: [{ name: "teal", label: { en_US: "Teal" } }] },
    });
    const addId = (add.json as { job_id: string }).job_id.slice(`${PROJECT}/`.length);
    await waitForJobState(fixtures.queues, PROJECT, addId, "completed", 30_000);
    // A failed upstream login: the job fails or waits for a retry, and says why in the logs.
    const refusedLogin = await client.call("/v1/sync", { token: TRIGGER_TOKEN, body: { project: OTHER_PROJECT } });
    const refusedId = (refusedLogin.json as { job_id: string }).job_id.slice(`${OTHER_PROJECT}/`.length);
    await waitFor(() => lines.some((line) => line.includes(`"job":"${refusedId}"`) && line.includes('"msg":"job failed"')), {
      timeoutMs: 30_000,
      what: "the refused login's job to fail",
    });
    const wrongAdmin = `Basic ${Buffer.from(`${ADMIN.name}:${ADMIN.password}x`).toString("base64")}`;
    expect((await client.call("/admin/api/jobs", { headers: { authorization: wrongAdmin } })).status).toBe(401);
    expect((await client.call("/v1/sync", { token: `${TRIGGER_TOKEN}x`, body: { project: PROJECT } })).status).toBe(401);
    await worker.stop();
    worker = undefined;
    const refusedJob = await fixtures.queues.queueFor(OTHER_PROJECT).getJob(refusedId);
    expect(refusedJob?.failedReason).toMatch(/login|401|400|credentials|password/i);

    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const id of [syncId, addId]) {
      // Job ids are per queue: project 99's jobs may reuse these ids.
      const ofJob = records.filter((record) => record.job === id && record.attempt !== undefined && record.project !== OTHER_PROJECT);
      expect(ofJob.length, `lines of job ${id}`).toBeGreaterThan(1);
      for (const record of ofJob)
        expect(record).toMatchObject({
          project: PROJECT,
          queue: queueNameOf(PROJECT),
          jobName: id === syncId ? "sync.run" : "options.add",
        });
    }
    expect(
      records.some((record) => record.msg === "authentication refused" && record.surface === "admin" && record.user === ADMIN.name),
    ).toBe(true);
    expect(records.some((record) => record.msg === "authentication refused" && record.surface === "trigger")).toBe(true);
    const all = lines.join("");
    for (const secret of SECRETS) expect(all.includes(secret), `the logs contain the secret '${secret}'`).toBe(false);
  });
});
