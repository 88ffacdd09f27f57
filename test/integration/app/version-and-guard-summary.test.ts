import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { REPO_ROOT, waitForExit } from "../../support/process-cli.js";
import { writeTestConfig } from "../../support/process-config.js";
import { test, type PimSyncFixtures } from "../../support/fixtures.js";

describe("pim-sync --version, and the deletion guard's text summary", () => {
  let fixtures: Pick<PimSyncFixtures, "sims" | "tempDir" | "cli">;

  test.beforeEach(({ sims, tempDir, cli }) => {
    fixtures = { sims, tempDir, cli };
  });

  test("--version prints the package version, exit 0", async () => {
    const { version } = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    const proc = fixtures.cli.spawn(["--version"]);
    expect(await waitForExit(proc, 20_000)).toEqual({ code: 0, signal: null });
    expect(proc.stdout()).toBe(`pim-sync ${version}\n`);
  });

  test("a tripped guard lists the held-back names, up to a bound, then 'and N more'", async () => {
    const configPath = await writeTestConfig(fixtures.tempDir, {
      pimUrl: fixtures.sims.pim.url,
      serviceUrl: fixtures.sims.service.url,
      redisPrefix: null,
      stateDir: join(fixtures.tempDir, "state"),
    });
    const colors = fixtures.sims.pim.state.attribute_options["color"] ?? [];
    for (let i = 0; i < 30; i += 1)
      colors.push({ code: `extra_${String(i).padStart(2, "0")}`, sort_order: 100 + i, labels: { en_US: `Extra ${i}` } });
    fixtures.sims.pim.state.attribute_options["color"] = colors;
    const first = fixtures.cli.spawn(["sync", "--project", "67", "--once", "--config", configPath]);
    expect((await waitForExit(first, 60_000)).code).toBe(0);

    // 30 of the 35 options go: more than half, so the guard holds them back.
    fixtures.sims.pim.state.attribute_options["color"] = colors.filter((option) => !option.code.startsWith("extra_"));
    const second = fixtures.cli.spawn(["sync", "--project", "67", "--once", "--config", configPath]);
    expect((await waitForExit(second, 60_000)).code).toBe(3);

    const out = second.stdout();
    expect(out).toMatch(/^ {2}color: 30 option\(s\): /m);
    const shown = Array.from({ length: 20 }, (_, i) => `extra_${String(i).padStart(2, "0")}`).join(", ");
    expect(out).toContain(`    ${shown} and 10 more\n`);
  });
});
