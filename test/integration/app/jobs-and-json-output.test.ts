import { join } from "node:path";
import { describe, expect } from "vitest";
import { waitForExit } from "../../support/process-cli.js";
import { writeTestConfig, configInputWithoutUpstreams } from "../../support/process-config.js";
import { test, type PimSyncFixtures } from "../../support/fixtures.js";
import { runWithConfig, type CommandRun } from "../../support/run-with-config.js";

describe("jobs list, show, retry and --json failures, as processes", () => {
  let fixtures: Pick<PimSyncFixtures, "cli" | "redis" | "queues" | "tempDir">;
  let configPath: string;

  test.override("queueProjects", [67, 99]);
  test.beforeEach(async ({ redis, queues, tempDir, cli }) => {
    fixtures = { cli, redis, queues, tempDir };
    configPath = await writeTestConfig(
      tempDir,
      configInputWithoutUpstreams(redis.prefix, {
        projects: [67, 99],
        projectExtras: { allowed_options_for_pim_attribute_addition: ["color"] },
      }),
    );
  });

  const run = (...args: string[]): Promise<CommandRun> => runWithConfig(fixtures.cli, configPath, args);

  test("--limit is overall; a header row; columns aligned whatever the id length; the data summarised", async () => {
    await fixtures.queues.enqueue("sync.run", { project: 67, full: true, trigger: "cli" });
    // A long id (idempotency keys make one) beside short ones.
    await fixtures.queues.enqueue(
      "options.add",
      { project: 67, attribute: "color", options: [{ name: "teal" }, { name: "mint" }] },
      { idempotencyKey: "67:delivery-1" },
    );
    await fixtures.queues.enqueue("options.add", { project: 99, attribute: "color", options: [{ name: "sand" }] });
    await fixtures.queues.enqueue("sync.run", { project: 99, trigger: "api" });

    const all = await run("jobs", "list");
    expect(all.code).toBe(0);
    const lines = all.out.trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    const header = lines[0] ?? "";
    expect(header).toMatch(/^REF\s+JOB\s+STATE\s+ATTEMPTS\s+CREATED\s+DATA\s+FAILURE$/);
    for (const column of ["JOB", "STATE", "ATTEMPTS", "CREATED", "DATA"]) {
      const at = header.indexOf(column);
      for (const row of lines.slice(1)) expect(row.slice(at - 2, at), `column ${column} of '${row}'`).toBe("  ");
      for (const row of lines.slice(1)) expect(row[at], `column ${column} of '${row}'`).not.toBe(" ");
    }
    expect(all.out).toMatch(/color: teal, mint/);
    expect(all.out).toMatch(/full, trigger cli/);

    const limited = await run("jobs", "list", "--limit", "2");
    expect(limited.out.trimEnd().split("\n")).toHaveLength(3);
    const limitedJson = JSON.parse((await run("jobs", "list", "--limit", "3", "--json")).out) as {
      ref: string;
      created_at: string;
      attempts_made: number;
    }[];
    expect(limitedJson).toHaveLength(3);
    expect(limitedJson.every((job) => typeof job.created_at === "string" && job.attempts_made === 0)).toBe(true);
  });

  test("jobs retry and jobs show of an unknown reference: one line each, no usage", async () => {
    const retry = await run("jobs", "retry", "67/404404");
    expect(retry.code).toBe(1);
    expect(retry.out).toBe("67/404404: skipped (not found)\n");
    expect(retry.err).toBe("");

    const show = await run("jobs", "show", "67/404404");
    expect(show.code).toBe(2);
    expect(show.err.trimEnd().split("\n")).toEqual([expect.stringMatching(/^pim-sync jobs: job 67\/404404 not found/)]);
  });

  test("--json on failure prints an error object on stdout (usage, config and not-found errors)", async () => {
    const notFound = await run("jobs", "show", "67/404404", "--json");
    expect(notFound.code).toBe(2);
    expect(JSON.parse(notFound.out)).toEqual({
      error: { kind: "usage", message: expect.stringContaining("67/404404 not found"), exit_code: 2 },
    });

    const badProject = await run("enqueue", "sync", "--project", "5", "--json");
    expect(badProject.code).toBe(2);
    expect(JSON.parse(badProject.out)).toMatchObject({ error: { kind: "usage", exit_code: 2 } });

    const proc = fixtures.cli.spawn(["plan", "--project", "67", "--json", "--config", join(fixtures.tempDir, "missing.yaml")]);
    await waitForExit(proc, 30_000);
    expect(JSON.parse(proc.stdout())).toMatchObject({
      error: { kind: "config", exit_code: 2, problems: [expect.stringContaining("cannot read the file")] },
    });
  });
});
