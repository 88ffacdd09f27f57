import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { waitForExit } from "../../support/process-cli.js";
import { testConfigObject, configInputWithoutUpstreams } from "../../support/process-config.js";
import { TEST_REDIS_URL } from "../../support/redis.js";
import { test, type PimSyncFixtures } from "../../support/fixtures.js";

describe("schedule.cron and schedule.timezone are checked when the config loads", () => {
  let fixtures: Pick<PimSyncFixtures, "tempDir" | "cli">;

  test.beforeEach(({ tempDir, cli }) => {
    fixtures = { tempDir, cli };
  });

  async function configWith(schedule: Record<string, string>, extras: Record<string, unknown> = {}): Promise<string> {
    const config = testConfigObject(configInputWithoutUpstreams("schedule-test", { projectExtras: { schedule } }));
    const path = join(fixtures.tempDir, "config.json");
    await writeFile(path, JSON.stringify({ ...config, redis: { url: TEST_REDIS_URL, prefix: "schedule-test" }, ...extras }));
    return path;
  }

  // Every command that loads the config: the check is in the loader, not in the worker.
  const EVERY_COMMAND: readonly (readonly string[])[] = [
    ["plan", "--project", "67"],
    ["sync", "--project", "67", "--once"],
    ["worker"],
    ["enqueue", "sync", "--project", "67"],
    ["add-options", "--project", "67", "--attribute", "color", "--options", '[{"name":"teal"}]'],
    ["jobs", "list"],
    ["activation", "connections"],
  ];
  const ACTIVATION = { url: "http://127.0.0.1:9", pim_connection_id: "pim-1", access_token: "activation-token" };

  for (const command of EVERY_COMMAND) {
    test(`${command.slice(0, 2).join(" ")}: a 4-field cron and a 1-field activation schedule → exit 2 naming both keys`, async () => {
      const configPath = await configWith({ cron: "*/15 * * *" }, { activation: { ...ACTIVATION, orders: { schedule: "*/15" } } });
      const proc = fixtures.cli.spawn([...command, "--config", configPath]);
      const exit = await waitForExit(proc, 20_000);

      expect(exit).toEqual({ code: 2, signal: null });
      expect(proc.stderr()).toContain(
        "projects[0].schedule.cron (project 67): '*/15 * * *' is not a valid cron expression: has 4 fields; give 5",
      );
      expect(proc.stderr()).toContain("activation.orders.schedule: '*/15' is not a valid cron expression: has 1 field; give 5");
      expect(proc.stdout()).toBe("");
    });
  }

  for (const command of [["plan", "--project", "67"], ["worker"]]) {
    test(`${command[0]}: a minute of 61 and a misspelt time zone → exit 2 naming the project and both keys`, async () => {
      const configPath = await configWith({ cron: "61 * * * *", timezone: "Europe/Pariss" });
      const proc = fixtures.cli.spawn([...command, "--config", configPath]);
      const exit = await waitForExit(proc, 20_000);

      expect(exit).toEqual({ code: 2, signal: null });
      expect(proc.stderr()).toContain("projects[0].schedule.cron (project 67): '61 * * * *' is not a valid cron expression");
      expect(proc.stderr()).toContain("projects[0].schedule.timezone (project 67): 'Europe/Pariss' is not a known IANA time zone");
      expect(proc.stdout()).toBe("");
    });
  }

  test("a valid schedule with a seconds field and a time zone loads", async () => {
    const configPath = await configWith({ cron: "0 */5 * * * *", timezone: "Europe/Paris" });
    const proc = fixtures.cli.spawn(["plan", "--project", "67", "--config", configPath]);
    await waitForExit(proc, 30_000);
    expect(proc.stderr()).not.toContain("schedule");
  });
});
