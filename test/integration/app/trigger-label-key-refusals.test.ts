import { describe, expect } from "vitest";
import { allJobs } from "../../support/process-jobs.js";
import { createTriggerClient } from "../../support/trigger-client.js";
import { test } from "../../support/fixtures.js";
import { startWorkerCommand } from "../../support/worker-process.js";

const TOKEN = "trigger-token-of-the-label-key-test";

describe("pim-sync worker as a process: a label key that is no locale code is the caller's fault", () => {
  test("POST /v1/add-options with an empty label key answers 400 naming the field, queues nothing, logs no error", async ({
    sims,
    redis,
    queues,
    tempDir,
    cli,
  }) => {
    const { worker, url } = await startWorkerCommand(
      { cli, sims, redis, tempDir },
      {
        trigger: { token: TOKEN },
        server: { host: "127.0.0.1", port: 0 },
        projectExtras: { allowed_options_for_pim_attribute_addition: ["color"] },
      },
    );
    const client = createTriggerClient(() => url);

    for (const key of ["", "en__US", "a b"]) {
      const answer = await client.call("/v1/add-options", {
        token: TOKEN,
        body: { project: 67, attribute: "color", options: [{ name: "azul", label: { [key]: "!" } }] },
      });
      expect(answer.status, `label key '${key}'`).toBe(400);
      expect(answer.json, `label key '${key}'`).toEqual({
        errors: [expect.stringMatching(new RegExp(`^options\\.0\\.label\\.${key}: label keys must be locale codes`))],
      });
    }
    expect(await allJobs(queues)).toEqual([]);
    expect(sims.service.requests.filter((r) => r.method !== "GET")).toEqual([]);
    // A refusal of input is no server fault: no error line, no stack.
    expect(worker.logs().filter((line) => Number(line["level"]) >= 50)).toEqual([]);
    expect(worker.stderr()).not.toContain("Invalid locale code");
  });
});
