/**
 * The image sets PIM_SYNC_CONFIG once, so `docker compose exec worker pim-sync jobs list` needs
 * no `--config`: checked over the real CLI process, as an operator would type it.
 */
import { join } from "node:path";
import { beforeAll, describe, expect } from "vitest";
import { JOBS_HELP } from "../../../src/cli/commands/jobs-command.js";
import { assertCliBuilt, waitForExit, type CliProcess } from "../../support/process-cli.js";
import { writeTestConfig } from "../../support/process-config.js";
import { test, type CliFixture } from "../../support/fixtures.js";

describe("the config path from PIM_SYNC_CONFIG when --config is not given", () => {
  let cli: CliFixture;
  let configPath: string;
  let missingPath: string;

  beforeAll(() => assertCliBuilt());
  test.beforeEach(async ({ sims, redis, tempDir, cli: processes }) => {
    cli = processes;
    configPath = await writeTestConfig(tempDir, {
      pimUrl: sims.pim.url,
      serviceUrl: sims.service.url,
      redisPrefix: redis.prefix,
      stateDir: join(tempDir, "state"),
    });
    missingPath = join(tempDir, "no-such-config.yaml");
  });

  /** Runs the CLI with PIM_SYNC_CONFIG set (or removed, with null) and waits for it to end. */
  async function run(args: readonly string[], configEnv: string | null): Promise<CliProcess> {
    // spawnCli passes the runner's environment on: the variable is set or emptied explicitly.
    const proc = cli.spawn(args, { env: { PIM_SYNC_CONFIG: configEnv ?? "" } });
    await waitForExit(proc, 60_000);
    return proc;
  }

  test("enqueue and jobs list read the file the variable names", async () => {
    const enqueued = await run(["enqueue", "sync", "--project", "67"], configPath);
    expect(enqueued.stderr()).toBe("");
    expect(enqueued.child.exitCode).toBe(0);
    const ref = /job (67\/\S+)/.exec(enqueued.stdout())?.[1];
    expect(ref, enqueued.stdout()).toBeDefined();

    const listed = await run(["jobs", "list"], configPath);
    expect(listed.stderr()).toBe("");
    expect(listed.child.exitCode).toBe(0);
    expect(listed.stdout()).toContain(ref);
  });

  test("--config wins over the variable", async () => {
    const proc = await run(["jobs", "list", "--config", configPath], missingPath);
    expect(proc.stderr()).toBe("");
    expect(proc.child.exitCode).toBe(0);
    expect(proc.stdout()).toBe("no jobs\n");
  });

  test("a variable naming a missing file is reported like a --config that does", async () => {
    const proc = await run(["jobs", "list"], missingPath);
    expect(proc.child.exitCode).toBe(2);
    expect(proc.stderr()).toContain(missingPath);
  });

  test("neither given: exit 2 with an error naming both, and the command's help", async () => {
    const proc = await run(["jobs", "list"], null);
    expect(proc.child.exitCode).toBe(2);
    expect(proc.stderr()).toContain(
      "pim-sync jobs: no configuration file: give --config FILE or set the PIM_SYNC_CONFIG environment variable",
    );
    expect(proc.stderr()).toContain(JOBS_HELP);
  });
});
