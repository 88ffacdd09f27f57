import { describe, expect } from "vitest";
import { writeTestConfig, configInputWithoutUpstreams } from "../../../support/process-config.js";
import { allJobs } from "../../../support/process-jobs.js";
import { test, type PimSyncFixtures } from "../../../support/fixtures.js";
import { runWithConfig, type CommandRun } from "../../../support/run-with-config.js";

describe("admin commands with a config whose upstream secrets are not set", () => {
  let fixtures: Pick<PimSyncFixtures, "cli" | "redis" | "queues" | "tempDir">;
  let configPath: string;

  test.beforeEach(async ({ redis, tempDir, queues, cli }) => {
    fixtures = { cli, redis, queues, tempDir };
    // What an operator's config looks like: every credential comes from the environment.
    const project = {
      id: 67,
      pim: {
        url: "http://127.0.0.1:9",
        client_id: "${PIM_CLIENT_ID}",
        secret: "${PIM_SECRET}",
        username: "${PIM_USERNAME}",
        password: "${PIM_PASSWORD}",
      },
      service: { url: "http://127.0.0.1:9", token: "${SERVICE_TOKEN}" },
      allowed_options_for_pim_attribute_addition: ["color"],
    };
    configPath = await writeTestConfig(
      tempDir,
      configInputWithoutUpstreams(redis.prefix, { trigger: { token: "${TRIGGER_TOKEN}" }, topLevel: { projects: [project] } }),
      "operator.json",
    );
  });

  const run = (...args: string[]): Promise<CommandRun> => runWithConfig(fixtures.cli, configPath, args);

  test("enqueue, jobs list/show/retry and a queued add-options work; sync --once names the missing variables", async () => {
    const enqueued = await run("enqueue", "sync", "--project", "67", "--json");
    expect(enqueued).toMatchObject({ code: 0, err: "" });
    const ref = (JSON.parse(enqueued.out) as { job_id: string }).job_id;
    expect(await allJobs(fixtures.queues)).toHaveLength(1);

    const added = await run("add-options", "--project", "67", "--attribute", "color", "--options", '[{"name":"teal"}]');
    expect(added).toMatchObject({ code: 0, err: "" });
    expect(await allJobs(fixtures.queues)).toHaveLength(2);

    const listed = await run("jobs", "list");
    expect(listed).toMatchObject({ code: 0, err: "" });
    expect(listed.out).toContain(ref);

    expect(await run("jobs", "show", ref)).toMatchObject({ code: 0, err: "" });
    // Not failed, so nothing to replay: but the command ran (exit 1 = skipped, not a config error).
    const retried = await run("jobs", "retry", ref);
    expect(retried.err).toBe("");
    expect(retried.out).toContain(`${ref}: skipped`);

    const sync = await run("sync", "--project", "67", "--once");
    expect(sync.code).toBe(2);
    for (const name of ["PIM_CLIENT_ID", "PIM_SECRET", "PIM_USERNAME", "PIM_PASSWORD", "SERVICE_TOKEN"])
      expect(sync.err).toContain(`environment variable ${name} is not set`);
  });
});
