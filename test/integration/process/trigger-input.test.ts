import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { JobQueues } from "../../../src/jobs/job-queues.js";
import { startSimulators, type RunningSimulators } from "../../../src/sim/start-simulators.js";
import { assertCliBuilt, killLeftoverProcesses, servingUrlOf, spawnCli, waitForExit, type CliProcess } from "../../support/process-cli.js";
import { writeTestConfig } from "../../support/process-config.js";
import { allJobs, openTestQueues } from "../../support/process-jobs.js";
import { createConfigSafeTestRedis } from "../../support/process-redis.js";
import type { TestRedis } from "../../support/redis.js";
import { createTriggerClient } from "../../support/trigger-client.js";

const TOKEN = "trigger-token-of-the-process-test";

describe("pim-sync worker as a process: the trigger checks input where it enters", () => {
  let sims: RunningSimulators;
  let redis: TestRedis;
  let queues: JobQueues;
  let dir: string;
  let worker: CliProcess;
  let triggerUrl: string;
  const client = createTriggerClient(() => triggerUrl);

  beforeAll(() => assertCliBuilt());
  beforeEach(async () => {
    sims = await startSimulators();
    redis = await createConfigSafeTestRedis();
    queues = openTestQueues(redis);
    dir = await mkdtemp(join(tmpdir(), "pim-sync-trigger-process-"));
    const configPath = await writeTestConfig(dir, {
      pimUrl: sims.pim.url,
      serviceUrl: sims.service.url,
      redisPrefix: redis.prefix,
      logLevel: "info",
      // Bound as 0: the worker logs the address it got.
      trigger: { port: 0, token: TOKEN },
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color"], locales: ["en_US", "fr_FR"] },
    });
    worker = spawnCli(["worker", "--config", configPath]);
    triggerUrl = await servingUrlOf(worker);
  });

  afterEach(async () => {
    worker.signal("SIGTERM");
    await waitForExit(worker, 30_000);
    await killLeftoverProcesses();
    await queues.close();
    await sims.close();
    await redis.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it("a label locale outside the project's locales: 400 naming it, nothing queued", async () => {
    const answer = await client.call("/v1/add-options", {
      token: TOKEN,
      body: { project: 67, attribute: "color", options: [{ name: "teal", label: { en_US: "Teal", de_DE: "Blaugrün" } }] },
    });

    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ errors: ["options.0.label.de-DE: 'de-DE' is not among the project's locales (en-US, fr-FR)"] });
    expect(await allJobs(queues)).toEqual([]);
  });

  it('{"project": "67"}: 400 saying the type is wrong', async () => {
    const answer = await client.call("/v1/sync", { token: TOKEN, body: { project: "67" } });

    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ errors: ['project: must be a number (a configured project id), got string "67"'] });
    expect(await allJobs(queues)).toEqual([]);
  });
});
