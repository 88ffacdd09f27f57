import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect } from "vitest";
import type { JobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { assertCliBuilt, waitForExit } from "../../../support/process-cli.js";
import { testConfigObject } from "../../../support/process-config.js";
import { allJobs } from "../../../support/process-jobs.js";
import type { TestRedis } from "../../../support/redis.js";
import { test, type CliFixture } from "../../../support/fixtures.js";

describe("admin commands with a config whose upstream secrets are not set", () => {
  let cli: CliFixture;
  let redis: TestRedis;
  let queues: JobQueues;
  let dir: string;
  let configPath: string;

  beforeAll(() => assertCliBuilt());
  test.beforeEach(async ({ redis: testRedis, tempDir, queues: projectQueues, cli: processes }) => {
    cli = processes;
    redis = testRedis;
    queues = projectQueues;
    dir = tempDir;
    const config = testConfigObject({
      pimUrl: "http://127.0.0.1:9",
      serviceUrl: "http://127.0.0.1:9",
      redisPrefix: redis.prefix,
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color"] },
    });
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
    configPath = join(dir, "operator.json");
    await writeFile(configPath, JSON.stringify({ ...config, trigger: { token: "${TRIGGER_TOKEN}" }, projects: [project] }));
  });

  async function run(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
    const proc = cli.spawn([...args, "--config", configPath]);
    const exit = await waitForExit(proc, 30_000);
    return { code: exit.code, out: proc.stdout(), err: proc.stderr() };
  }

  test("enqueue, jobs list/show/retry and a queued add-options work; sync --once names the missing variables", async () => {
    const enqueued = await run("enqueue", "sync", "--project", "67", "--json");
    expect(enqueued).toMatchObject({ code: 0, err: "" });
    const ref = (JSON.parse(enqueued.out) as { job_id: string }).job_id;
    expect(await allJobs(queues)).toHaveLength(1);

    const added = await run("add-options", "--project", "67", "--attribute", "color", "--options", '[{"name":"teal"}]');
    expect(added).toMatchObject({ code: 0, err: "" });
    expect(await allJobs(queues)).toHaveLength(2);

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
