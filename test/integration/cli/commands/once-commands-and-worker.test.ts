import { join } from "node:path";
import { pino, type Logger } from "pino";
import { describe, expect } from "vitest";
import { startAppWorker } from "../../../support/app-worker.js";
import { loadSettings } from "../../../../src/settings/load-settings.js";
import { waitForExit, type LogLine } from "../../../support/process-cli.js";
import { SIM_SECRETS, writeTestConfig } from "../../../support/process-config.js";
import { waitForJobState } from "../../../support/process-jobs.js";
import { waitFor } from "../../../support/wait-for.js";
import { test, type WorkersFixture } from "../../../support/fixtures.js";
import { HELD_HTTP, PIM_API } from "../../../support/worker-harness.js";
import { addOptionsArgs } from "../../../support/add-options-args.js";
import type { ProcessTestFixtures } from "../../../support/worker-process.js";

const PROJECT = 67;
const TOKEN = "/api/oauth/v1/token";

describe("--once commands and the worker on one project", () => {
  let fixtures: ProcessTestFixtures & { readonly workers: WorkersFixture };
  let workerLogs: LogLine[];

  test.beforeEach(({ sims, redis, tempDir, queues, workers, cli }) => {
    [fixtures, workerLogs] = [{ cli, sims, redis, queues, tempDir, workers }, []];
  });

  function config(
    extra: { logLevel?: string; addOptions?: Record<string, unknown>; redis?: boolean } = {},
    name = "config.json",
  ): Promise<string> {
    return writeTestConfig(
      fixtures.tempDir,
      {
        pimUrl: fixtures.sims.pim.url,
        serviceUrl: fixtures.sims.service.url,
        redisPrefix: extra.redis === false ? null : fixtures.redis.prefix,
        stateDir: join(fixtures.tempDir, "state"),
        logLevel: extra.logLevel ?? "silent",
        projectExtras: { allowed_options_for_pim_attribute_addition: ["color"] },
        // A PIM request the test holds at a gate waits for the test, not for a timer.
        http: HELD_HTTP,
        ...(extra.addOptions ? { addOptions: extra.addOptions } : {}),
      },
      name,
    );
  }

  function captureLogger(): Logger {
    return pino({ level: "info" }, { write: (line: string) => void workerLogs.push(JSON.parse(line) as LogLine) });
  }

  async function startInProcessWorker(configPath: string): Promise<void> {
    fixtures.workers.keep(await startAppWorker({ settings: await loadSettings(configPath, {}), logger: captureLogger() }));
  }

  test("while a worker job of the project runs, sync --once and add-options --once are refused (exit 1, nothing done)", async () => {
    const configPath = await config();
    await startInProcessWorker(configPath);
    // The PIM holds the job's reads: it keeps the lock until the gate opens, however slowly the
    // commands start.
    const gate = fixtures.sims.pim.holdRequests({ path: PIM_API });
    const job = await fixtures.queues.enqueue("sync.run", { project: PROJECT });
    // Logged once the lock is taken.
    await waitFor(() => workerLogs.find((line) => line.msg === "job started"), { timeoutMs: 15_000, what: "the job to start" });
    await gate.reached(1, 15_000);
    const tokensBefore = fixtures.sims.pim.requests.filter((r) => r.path === TOKEN).length;

    const sync = fixtures.cli.spawn(["sync", "--config", configPath, "--project", "67", "--once"]);
    const add = fixtures.cli.spawn([...addOptionsArgs(configPath, { attribute: "color", options: '[{"name": "teal"}]' }), "--once"]);
    const [syncExit, addExit] = await Promise.all([waitForExit(sync, 30_000), waitForExit(add, 30_000)]);

    for (const proc of [sync, add]) {
      expect(proc.stderr()).toMatch(
        new RegExp(`project 67 is busy: job 67/${job.jobId} \\(pid \\d+ on [^)]+\\) holds its lock; nothing was written`),
      );
      for (const secret of SIM_SECRETS) expect(proc.stdout() + proc.stderr()).not.toContain(secret);
    }
    expect(syncExit.code).toBe(1);
    expect(addExit.code).toBe(1);
    // Refused before any request: neither command logged in to the PIM.
    expect(fixtures.sims.pim.requests.filter((r) => r.path === TOKEN).length).toBe(tokensBefore);
    expect(workerLogs.some((line) => line.msg === "job done")).toBe(false);
    gate.open();
    expect((await waitForJobState(fixtures.queues, PROJECT, job.jobId, "completed", 30_000)).returnvalue).toMatchObject({
      outcome: "done",
    });
    expect(
      fixtures.sims.service
        .collections()
        .find((c) => c.name === "color" && c.project === PROJECT)
        ?.options.map((o) => o.name),
    ).not.toContain("teal");
  });

  test("a worker job waits while sync --once holds the project's lock, then runs after it", async () => {
    const configPath = await config({ logLevel: "info" });
    await startInProcessWorker(configPath);
    // The command's option reads are held (after its structure read, with the lock taken): it
    // keeps the lock until the gate opens below.
    const gate = fixtures.sims.pim.holdRequests({ path: /\/attributes\/[^/]+\/options$/ });
    const once = fixtures.cli.spawn(["sync", "--config", configPath, "--project", "67", "--once"]);
    await once.waitForLog((line) => line.msg === "PIM structure read", 15_000, "the structure read");
    await gate.reached(1, 15_000);

    const job = await fixtures.queues.enqueue("sync.run", { project: PROJECT });
    const waiting = await waitFor(() => workerLogs.find((line) => line.msg === "waiting for the project lock"), {
      timeoutMs: 15_000,
      what: "the job to wait for the lock",
    });
    expect(String(waiting.heldBy)).toMatch(/^sync --once of project 67 \(pid \d+ on /);
    expect(workerLogs.some((line) => line.msg === "job started")).toBe(false);
    expect(once.hasExited()).toBe(false);

    gate.open();
    expect((await waitForExit(once, 30_000)).code).toBe(0);
    const done = await waitForJobState(fixtures.queues, PROJECT, job.jobId, "completed", 30_000);

    const started = workerLogs.find((line) => line.msg === "job started");
    const lastOfOnce = Math.max(...once.logs().map((line) => Number(line.time)));
    expect(Number(started?.time)).toBeGreaterThanOrEqual(lastOfOnce);
    // It ran on what --once had written: nothing left to write.
    expect(done.returnvalue).toMatchObject({ outcome: "done", written: 0 });
  });

  test("sync --once honours add_options.recent_addition_grace_ms; the option removed can be added again", async () => {
    // No grace at all: an addition the PIM does not show is deleted by the next sync.
    const configPath = await config({ redis: false, addOptions: { recent_addition_grace_ms: 0 } });
    expect((await waitForExit(fixtures.cli.spawn(["sync", "--config", configPath, "--project", "67", "--once"]), 30_000)).code).toBe(0);
    const add = fixtures.cli.spawn([
      ...addOptionsArgs(configPath, { attribute: "color", options: '[{"name": "teal", "label": {"en-US": "Teal"}}]' }),
      "--once",
    ]);
    expect((await waitForExit(add, 30_000)).code).toBe(0);
    const colorInService = (): string[] =>
      fixtures.sims.service
        .collections()
        .find((c) => c.name === "color" && c.project === PROJECT)
        ?.options.map((o) => o.name) ?? [];
    expect(colorInService()).toContain("teal");
    // Gone from the PIM again (deleted there, or not indexed yet: the grace is what decides).
    const pimColor = fixtures.sims.pim.state.attribute_options.color ?? [];
    fixtures.sims.pim.state.attribute_options.color = pimColor.filter((option) => option.code !== "teal");

    const sync = fixtures.cli.spawn(["sync", "--config", configPath, "--project", "67", "--once", "--json"]);
    expect((await waitForExit(sync, 30_000)).code).toBe(0);

    expect(colorInService()).not.toContain("teal");
    const report = JSON.parse(sync.stdout()) as { collections: { collection: string; deletes: number }[] };
    expect(report.collections.find((c) => c.collection === "color")).toMatchObject({ deletes: 1 });

    // Removed by the PIM and a sync, it can be added again: the expired record is gone (file state).
    const again = fixtures.cli.spawn([
      ...addOptionsArgs(configPath, { attribute: "color", options: '[{"name": "teal", "label": {"en-US": "Teal"}}]' }),
      "--once",
      "--json",
    ]);
    expect((await waitForExit(again, 30_000)).code).toBe(0);
    expect(JSON.parse(again.stdout())).toMatchObject({ collections: [{ collection: "color", added: ["teal"], skipped: [] }] });
    expect(colorInService()).toContain("teal");
    expect((fixtures.sims.pim.state.attribute_options.color ?? []).map((option) => option.code)).toContain("teal");
  });
});
