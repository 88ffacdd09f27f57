import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { waitForExit, type CliProcess } from "../../support/process-cli.js";
import { testConfigObject, configInputWithoutUpstreams } from "../../support/process-config.js";
import { waitFor } from "../../support/wait-for.js";
import { startOwnRedisServer } from "../../../testkit/own-redis-server.js";
import { REFUSED_PORT } from "../../support/refused-port.js";
import { startSilentServer } from "../../support/silent-server.js";
import { test, type PimSyncFixtures } from "../../support/fixtures.js";

const REDIS_PASSWORD = "redis-pass-do-not-print";

/** Every stderr line of a process that is not a JSON object: what an operator's log parser chokes on. */
function nonJsonLines(proc: CliProcess): string[] {
  return proc
    .stderr()
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter((line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        return parsed === null || typeof parsed !== "object";
      } catch {
        return true;
      }
    });
}

describe("Redis away: commands end fast and clearly, the worker keeps trying", () => {
  let fixtures: Pick<PimSyncFixtures, "tempDir" | "cli">;

  test.beforeEach(({ tempDir, cli }) => {
    fixtures = { tempDir, cli };
  });

  /** A config whose Redis is at `redisUrl`; the upstreams are never reached by these tests. */
  async function configFor(
    redisUrl: string,
    extras: { connectTimeoutMs?: number; logLevel?: string; worker?: Record<string, unknown> } = {},
  ): Promise<string> {
    const config = testConfigObject(
      configInputWithoutUpstreams("redis-away-test", {
        logLevel: extras.logLevel ?? "info",
        worker: extras.worker,
        projectExtras: { allowed_options_for_pim_attribute_addition: ["color"] },
      }),
    );
    const path = join(fixtures.tempDir, "config.json");
    await writeFile(
      path,
      JSON.stringify({
        ...config,
        redis: { url: redisUrl, prefix: "redis-away-test", connect_timeout_ms: extras.connectTimeoutMs ?? 1_000 },
      }),
    );
    return path;
  }

  const COMMANDS: readonly (readonly string[])[] = [
    ["jobs", "list"],
    ["jobs", "show", "67/1"],
    ["jobs", "retry", "67/1"],
    ["enqueue", "sync", "--project", "67"],
    ["add-options", "--project", "67", "--attribute", "color", "--options", '[{"name":"teal"}]'],
    ["sync", "--project", "67", "--once"],
  ];

  for (const command of COMMANDS) {
    test(`${command.slice(0, 2).join(" ")}: nothing listens on Redis's port → one line naming Redis and its URL (password redacted), exit 1`, async () => {
      const configPath = await configFor(`redis://:${REDIS_PASSWORD}@127.0.0.1:${REFUSED_PORT}`);

      const proc = fixtures.cli.spawn([...command, "--config", configPath]);
      // Generous: the bound under test is connect_timeout_ms (1 s); this only stops a hang.
      const exit = await waitForExit(proc, 20_000);

      expect(exit).toEqual({ code: 1, signal: null });
      const lines = proc.stderr().trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^pim-sync ${command[0]}: .*Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${REFUSED_PORT} is not answering: .*ECONNREFUSED`,
        ),
      );
      expect(proc.stderr()).not.toContain(REDIS_PASSWORD);
      expect(proc.stderr()).not.toMatch(/^\s+at /m);
      expect(proc.stdout()).toBe("");
    });
  }

  test("a Redis that accepts the connection but never answers: the command gives up after redis.connect_timeout_ms", async () => {
    const silent = await startSilentServer();
    try {
      const configPath = await configFor(`redis://127.0.0.1:${silent.port}`);
      const proc = fixtures.cli.spawn(["jobs", "list", "--config", configPath]);
      const exit = await waitForExit(proc, 20_000);

      expect(exit).toEqual({ code: 1, signal: null });
      expect(proc.stderr().trimEnd().split("\n")).toEqual([
        expect.stringMatching(
          new RegExp(
            `^pim-sync jobs: .*Redis at redis://127\\.0\\.0\\.1:${silent.port} is not answering: .*gave up after 1000 ms, redis\\.connect_timeout_ms`,
          ),
        ),
      ]);
    } finally {
      await silent.close();
    }
  });

  test("the first SIGTERM ends a command that is waiting for Redis (long connect timeout)", async () => {
    const silent = await startSilentServer();
    try {
      const configPath = await configFor(`redis://127.0.0.1:${silent.port}`, { connectTimeoutMs: 600_000 });
      const proc = fixtures.cli.spawn(["enqueue", "sync", "--project", "67", "--config", configPath]);
      // It reached Redis, so its signal handlers are in place.
      await waitFor(() => silent.connections() > 0, { timeoutMs: 15_000, what: "the command's connection" });

      proc.signal("SIGTERM");
      const exit = await waitForExit(proc, 10_000);

      expect(exit).toEqual({ code: 1, signal: null });
      expect(proc.stderr().trimEnd().split("\n")).toEqual(["pim-sync enqueue: failed: interrupted (SIGTERM)"]);
    } finally {
      await silent.close();
    }
  });

  test("a worker started while Redis is away logs one JSON line per reconnect attempt and stops at the first SIGTERM", async () => {
    const configPath = await configFor(`redis://:${REDIS_PASSWORD}@127.0.0.1:${REFUSED_PORT}`);
    const worker = fixtures.cli.spawn(["worker", "--config", configPath]);

    const second = await worker.waitForLog(
      (line) => line.msg === "Redis is not answering; reconnecting" && line.attempt === 2,
      15_000,
      "a second reconnect attempt",
    );
    expect(second).toMatchObject({ redis: `redis://:***@127.0.0.1:${REFUSED_PORT}`, delayMs: expect.any(Number) });

    worker.signal("SIGTERM");
    const exit = await waitForExit(worker, 15_000);

    expect(exit).toEqual({ code: 0, signal: null });
    expect(nonJsonLines(worker)).toEqual([]);
    expect(worker.stderr()).not.toContain(REDIS_PASSWORD);
  });

  test("a Redis outage while the worker runs: JSON lines only, reconnect attempts with backoff, back to work when Redis returns", async () => {
    const server = await startOwnRedisServer();
    try {
      const configPath = await configFor(server.url, { worker: { shutdown_timeout_ms: 5_000 } });
      const worker = await fixtures.cli.startWorker(configPath);

      await server.kill();
      await worker.waitForLog(
        (line) => line.msg === "Redis is not answering; reconnecting" && line.attempt === 3,
        15_000,
        "a third reconnect attempt",
      );
      const attempts = worker.logs().filter((line) => line.msg === "Redis is not answering; reconnecting");
      expect(attempts.every((line) => typeof line.delayMs === "number" && typeof line.attempt === "number")).toBe(true);
      // One line per attempt: BullMQ's copies of the connection reconnect too, silently.
      const numbers = attempts.map((line) => line.attempt);
      expect(numbers).toEqual([...new Set(numbers)]);

      await server.start();
      await worker.waitForLog((line) => line.msg === "Redis answers again", 20_000, "'Redis answers again'");
      const lastAttempt = attempts.at(-1)?.attempt;
      expect(
        worker.logs().filter((line) => line.msg === "Redis is not answering; reconnecting" && line.attempt === lastAttempt),
      ).toHaveLength(1);

      worker.signal("SIGTERM");
      const exit = await waitForExit(worker, 30_000);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(nonJsonLines(worker)).toEqual([]);
      expect(worker.logs().some((line) => line.msg === "worker stopped")).toBe(true);
    } finally {
      await server.kill();
    }
  });

  test("SIGTERM during a Redis outage: the worker does not wait for Redis to come back", async () => {
    const server = await startOwnRedisServer();
    try {
      // A shutdown deadline longer than the wait below: an idle worker must not need it.
      const configPath = await configFor(server.url, { worker: { shutdown_timeout_ms: 30_000 } });
      const worker = await fixtures.cli.startWorker(configPath);
      await server.kill();
      await worker.waitForLog((line) => line.msg === "Redis is not answering; reconnecting", 15_000, "a reconnect attempt");

      worker.signal("SIGTERM");
      const exit = await waitForExit(worker, 15_000);

      expect(exit).toEqual({ code: 0, signal: null });
      expect(worker.logs().some((line) => line.msg === "Redis is not answering: stopping without waiting for it")).toBe(true);
      expect(nonJsonLines(worker)).toEqual([]);
    } finally {
      await server.kill();
    }
  });
});
