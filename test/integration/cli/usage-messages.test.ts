import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { assertCliBuilt, waitForExit } from "../../support/process-cli.js";
import { testConfigObject, configInputWithoutUpstreams } from "../../support/process-config.js";
import { test, type CliFixture } from "../../support/fixtures.js";

describe("usage and config mistakes, as the real CLI reports them", () => {
  let processes: CliFixture;
  let dir: string;

  async function run(args: readonly string[], env: Readonly<Record<string, string>> = {}) {
    const proc = processes.spawn(args, { env });
    const status = await waitForExit(proc, 60_000);
    return { code: status.code, out: proc.stdout(), err: proc.stderr() };
  }

  test.beforeEach(({ tempDir, cli }) => {
    assertCliBuilt();
    processes = cli;
    dir = tempDir;
  });

  test("a misspelt option is named with the one it most likely stands for, exit 2", async () => {
    const run1 = await run(["history", "--config", "x.yaml", "--project", "67", "--limt", "5"]);
    expect(run1.code).toBe(2);
    expect(run1.err).toMatch(/^pim-sync history: unknown option '--limt' \(did you mean --limit\?\)\n/);
    expect(run1.err).toContain("Usage: pim-sync history");

    const run2 = await run(["jobs", "list", "--config", "x.yaml", "-project", "67"]);
    expect(run2.code).toBe(2);
    expect(run2.err).toMatch(/^pim-sync jobs: unknown option '-project' \(did you mean --project\?\)/);
  });

  test("a misspelt command is named with the command it most likely stands for, exit 2", async () => {
    const misspelt = await run(["histroy", "--project", "67"]);
    expect(misspelt.code).toBe(2);
    expect(misspelt.err).toMatch(/^pim-sync: unknown command 'histroy' \(did you mean 'history'\?\)\n/);

    const unlike = await run(["frobnicate"]);
    expect(unlike.code).toBe(2);
    expect(unlike.err).toMatch(/^pim-sync: unknown command 'frobnicate'\n/);
  });

  test("an unset environment variable is reported once, naming the variable and the key, not again as too short", async () => {
    const config = {
      ...testConfigObject(configInputWithoutUpstreams(null, { stateDir: join(dir, "state") })),
      trigger: { token: "${PIM_SYNC_TEST_UNSET_TRIGGER_TOKEN}" },
    };
    const path = join(dir, "config.json");
    await writeFile(path, JSON.stringify(config));
    const result = await run(["history", "--config", path, "--project", "67"]);
    expect(result.code).toBe(2);
    const problems = result.err.split("\n").filter((line) => line.startsWith("  - "));
    expect(problems).toEqual(["  - trigger.token: environment variable PIM_SYNC_TEST_UNSET_TRIGGER_TOKEN is not set"]);
  });
});
