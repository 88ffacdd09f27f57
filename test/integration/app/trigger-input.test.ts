import { describe, expect } from "vitest";
import type { JobQueues } from "../../../src/jobs/queues/job-queues.js";
import { allJobs } from "../../support/process-jobs.js";
import { createTriggerClient } from "../../support/trigger-client.js";
import { test } from "../../support/fixtures.js";
import { startWorkerCommand } from "../../support/worker-process.js";

const TOKEN = "trigger-token-of-the-process-test";

describe("pim-sync worker as a process: the trigger checks input where it enters", () => {
  let queues: JobQueues;
  let triggerUrl: string;
  const client = createTriggerClient(() => triggerUrl);

  test.beforeEach(async ({ sims, redis, tempDir, queues: projectQueues, cli }) => {
    queues = projectQueues;
    ({ url: triggerUrl } = await startWorkerCommand(
      { cli, sims, redis, tempDir },
      {
        // Bound as 0: the worker logs the address it got.
        trigger: { port: 0, token: TOKEN },
        projectExtras: { allowed_options_for_pim_attribute_addition: ["color"], locales: ["en_US", "fr_FR"] },
      },
    ));
  });

  test("a label locale outside the project's locales: 400 naming it, nothing queued", async () => {
    const answer = await client.call("/v1/add-options", {
      token: TOKEN,
      body: { project: 67, attribute: "color", options: [{ name: "teal", label: { en_US: "Teal", de_DE: "Blaugrün" } }] },
    });

    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ errors: ["options.0.label.de-DE: 'de-DE' is not among the project's locales (en-US, fr-FR)"] });
    expect(await allJobs(queues)).toEqual([]);
  });

  test('{"project": "67"}: 400 saying the type is wrong', async () => {
    const answer = await client.call("/v1/sync", { token: TOKEN, body: { project: "67" } });

    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ errors: ['project: must be a number (a configured project id), got string "67"'] });
    expect(await allJobs(queues)).toEqual([]);
  });
});
