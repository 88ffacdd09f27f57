import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt, killLeftoverProcesses, spawnCli, waitForExit } from "../../support/process-cli.js";
import { testConfigObject } from "../../support/process-config.js";
import { TEST_REDIS_URL } from "../../support/redis.js";

describe("schedule.cron and schedule.timezone are checked when the config loads", () => {
  let dir: string;

  beforeAll(() => assertCliBuilt());
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "pim-sync-schedule-"));
  });
  afterEach(async () => {
    await killLeftoverProcesses();
    await rm(dir, { recursive: true, force: true });
  });

  async function configWith(schedule: Record<string, string>): Promise<string> {
    const config = testConfigObject({ pimUrl: "http://127.0.0.1:9", serviceUrl: "http://127.0.0.1:9", redisPrefix: "schedule-test", projectExtras: { schedule } });
    const path = join(dir, "config.json");
    await writeFile(path, JSON.stringify({ ...config, redis: { url: TEST_REDIS_URL, prefix: "schedule-test" } }));
    return path;
  }

  for (const command of [["plan", "--project", "67"], ["worker"]]) {
    it(`${command[0]}: a minute of 61 and a misspelt time zone → exit 2 naming the project and both keys`, async () => {
      const configPath = await configWith({ cron: "61 * * * *", timezone: "Europe/Pariss" });
      const proc = spawnCli([...command, "--config", configPath]);
      const exit = await waitForExit(proc, 20_000);

      expect(exit).toEqual({ code: 2, signal: null });
      expect(proc.stderr()).toContain("projects[0].schedule.cron (project 67): '61 * * * *' is not a valid cron expression");
      expect(proc.stderr()).toContain("projects[0].schedule.timezone (project 67): 'Europe/Pariss' is not a known IANA time zone");
      expect(proc.stdout()).toBe("");
    });
  }

  it("a valid schedule with a seconds field and a time zone loads", async () => {
    const configPath = await configWith({ cron: "0 */5 * * * *", timezone: "Europe/Paris" });
    const proc = spawnCli(["plan", "--project", "67", "--config", configPath]);
    await waitForExit(proc, 30_000);
    expect(proc.stderr()).not.toContain("schedule");
  });
});
