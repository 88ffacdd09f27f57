import { once } from "node:events";
import { createServer } from "node:net";
import { describe, expect } from "vitest";
import { SYNC_SCHEDULER_ID } from "../../../src/infra/redis/queue-names.js";
import { PROJECT_WITHOUT_SCHEDULE_WARNING } from "../../../src/jobs/worker/start-worker.js";
import { waitForExit } from "../../support/process-cli.js";
import { writeTestConfig, configInputWithoutUpstreams } from "../../support/process-config.js";
import { waitFor } from "../../support/wait-for.js";
import { test } from "../../support/fixtures.js";
import type { ProcessTestFixtures } from "../../support/worker-process.js";

const PROJECT = 67;
const FLEET_SCHEDULE = { cron: "0 3 * * *", timezone: "Europe/Paris" };
const REPLACED_MSG = "a project's sync schedule in Redis differs from the config; replacing it";

describe("the worker and the schedules in Redis", () => {
  let fixtures: Omit<ProcessTestFixtures, "sims">;

  test.beforeEach(({ redis, tempDir, queues, cli }) => {
    fixtures = { cli, redis, queues, tempDir };
  });

  /** A worker config (upstreams never reached: no job runs in these tests). */
  async function configFile(
    name: string,
    extras: {
      schedule: Record<string, string> | null;
      server?: Record<string, unknown>;
      worker?: Record<string, unknown>;
      projects?: readonly number[];
    },
  ): Promise<string> {
    return writeTestConfig(
      fixtures.tempDir,
      configInputWithoutUpstreams(fixtures.redis.prefix, {
        logLevel: "info",
        ...(extras.projects === undefined ? {} : { projects: extras.projects }),
        worker: extras.worker,
        server: extras.server,
        projectExtras: extras.schedule === null ? {} : { schedule: extras.schedule },
      }),
      name,
    );
  }

  async function scheduler(): Promise<{ pattern: string | null; tz: string | null } | null> {
    const found = await fixtures.queues.queueFor(PROJECT).getJobScheduler(SYNC_SCHEDULER_ID);
    return found ? { pattern: found.pattern ?? null, tz: found.tz ?? null } : null;
  }

  test("a project without a schedule is warned of at start, in one line naming the projects; one with a schedule is not", async () => {
    const without = await fixtures.cli.startWorker(
      await configFile("without.json", { schedule: null, projects: [PROJECT, PROJECT + 1] }),
      30_000,
    );
    const warning = await without.waitForLog(
      (line) => line.msg === PROJECT_WITHOUT_SCHEDULE_WARNING,
      30_000,
      "the missing schedule's warning",
    );
    expect(warning).toMatchObject({ level: 40, projects: [PROJECT, PROJECT + 1], count: 2, key: "projects[].schedule" });
    await without.waitForLog((line) => line.msg === "worker started", 30_000, "the worker started");
    expect(without.logs().filter((line) => line.msg === PROJECT_WITHOUT_SCHEDULE_WARNING)).toHaveLength(1);
    expect(await scheduler()).toBeNull();
    without.signal("SIGTERM");
    expect(await waitForExit(without, 30_000)).toEqual({ code: 0, signal: null });

    const withSchedule = await fixtures.cli.startWorker(await configFile("with.json", { schedule: FLEET_SCHEDULE }), 30_000);
    await withSchedule.waitForLog((line) => line.msg === "sync schedule upserted", 30_000, "the schedule upserted");
    expect(withSchedule.logs().filter((line) => line.msg === PROJECT_WITHOUT_SCHEDULE_WARNING)).toEqual([]);
  });

  test("a worker whose HTTP port is taken fails to start and leaves the running fleet's schedule as it was", async ({ closeAfter }) => {
    const fleet = await fixtures.cli.startWorker(await configFile("fleet.json", { schedule: FLEET_SCHEDULE }), 30_000);
    expect(await scheduler()).toEqual({ pattern: FLEET_SCHEDULE.cron, tz: FLEET_SCHEDULE.timezone });

    // The port the second worker is given is held by the test (bound as 0, read back).
    const holder = createServer();
    closeAfter({ close: () => new Promise<void>((resolve) => holder.close(() => resolve())) });
    holder.listen(0, "127.0.0.1");
    await once(holder, "listening");
    const address = holder.address();
    if (address === null || typeof address === "string") throw new Error("no port");

    const newcomer = fixtures.cli.spawn([
      "worker",
      "--config",
      await configFile("newcomer.json", { schedule: { cron: "*/5 * * * *" }, server: { host: "127.0.0.1", port: address.port } }),
    ]);
    const exit = await waitForExit(newcomer, 30_000);

    expect(exit).toEqual({ code: 1, signal: null });
    expect(newcomer.stderr()).toContain("EADDRINUSE");
    expect(await scheduler()).toEqual({ pattern: FLEET_SCHEDULE.cron, tz: FLEET_SCHEDULE.timezone });
    expect(newcomer.logs().some((line) => line.msg === "sync schedule upserted")).toBe(false);
    expect(fleet.hasExited()).toBe(false);
  });

  test("a running worker replaces a scheduler whose pattern, then whose time zone, was changed in Redis, and warns", async () => {
    const worker = await fixtures.cli.startWorker(
      await configFile("worker.json", { schedule: FLEET_SCHEDULE, worker: { safety_check_interval_ms: 1_000 } }),
      30_000,
    );
    expect(await scheduler()).toEqual({ pattern: FLEET_SCHEDULE.cron, tz: FLEET_SCHEDULE.timezone });
    const template = { name: "sync.run", data: { project: PROJECT, trigger: "schedule" } };

    // Another config's pattern (a yearly one: it never fires during the test).
    await fixtures.queues.queueFor(PROJECT).upsertJobScheduler(SYNC_SCHEDULER_ID, { pattern: "0 0 1 1 *" }, template);
    expect(await scheduler()).toEqual({ pattern: "0 0 1 1 *", tz: null });
    await waitFor(async () => (await scheduler())?.pattern === FLEET_SCHEDULE.cron, {
      timeoutMs: 30_000,
      what: "the worker to restore the pattern",
    });
    expect(await scheduler()).toEqual({ pattern: FLEET_SCHEDULE.cron, tz: FLEET_SCHEDULE.timezone });
    const patternWarning = await worker.waitForLog((line) => line.msg === REPLACED_MSG, 10_000, "the warning");
    expect(patternWarning).toMatchObject({
      level: 40,
      project: PROJECT,
      found: { cron: "0 0 1 1 *", timezone: null },
      wanted: { cron: FLEET_SCHEDULE.cron, timezone: FLEET_SCHEDULE.timezone },
    });

    // The same pattern in another zone is another schedule.
    await fixtures.queues.queueFor(PROJECT).upsertJobScheduler(SYNC_SCHEDULER_ID, { pattern: FLEET_SCHEDULE.cron, tz: "UTC" }, template);
    expect(await scheduler()).toEqual({ pattern: FLEET_SCHEDULE.cron, tz: "UTC" });
    await waitFor(async () => (await scheduler())?.tz === FLEET_SCHEDULE.timezone, {
      timeoutMs: 30_000,
      what: "the worker to restore the time zone",
    });
    const zoneWarning = await worker.waitForLog(
      (line) => line.msg === REPLACED_MSG && (line.found as { timezone?: unknown } | undefined)?.timezone === "UTC",
      10_000,
      "the time zone warning",
    );
    expect(zoneWarning).toMatchObject({ level: 40, found: { cron: FLEET_SCHEDULE.cron, timezone: "UTC" } });

    worker.signal("SIGTERM");
    expect(await waitForExit(worker, 30_000)).toEqual({ code: 0, signal: null });
  });
});
