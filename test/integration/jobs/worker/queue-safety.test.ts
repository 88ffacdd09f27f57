import { Redis } from "ioredis";
import { describe, expect } from "vitest";
import type { OwnRedisServer } from "../../../../testkit/own-redis-server.js";
import { PROJECT, type WorkerHarness } from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";

const CRON = "*/5 * * * * *";

describe("worker: queue safety settings survive a Redis that lost its data", () => {
  let h: WorkerHarness;
  let server: OwnRedisServer;
  let probe: Redis;

  // The fixtures close the harness (its workers) before the server, so they stop while their
  // Redis still answers: a harness is set up after an own server and torn down before it.
  test.beforeEach(async ({ ownRedis, harness }) => {
    server = await ownRedis.start();
    h = await harness.start();
    probe = ownRedis.keep(new Redis(server.url, { maxRetriesPerRequest: 1 }));
    probe.on("error", () => undefined);
  });

  function workerSettings(safetyCheckMs: number) {
    const settings = h.settings({
      projects: [h.project(PROJECT, { schedule: { cron: CRON } })],
      worker: { safety_check_interval_ms: safetyCheckMs },
    });
    return { ...settings, redis: { url: server.url, prefix: h.redis.prefix, connect_timeout_ms: 5_000 } };
  }

  /** The project queue's global concurrency (the `meta` hash) and its sync scheduler, as stored. */
  async function safetyState(): Promise<{ concurrency: string | null; scheduler: boolean }> {
    const queueKey = `${h.redis.prefix}:project-${PROJECT}`;
    return {
      concurrency: await probe.hget(`${queueKey}:meta`, "concurrency"),
      scheduler: (await probe.exists(`${queueKey}:repeat:sync-schedule`)) === 1,
    };
  }

  test("restored when the connection comes back after a restart without persistence", async () => {
    // A timer far beyond the test: only the reconnection can restore them.
    await h.startWorker(workerSettings(3_600_000));
    expect(await safetyState()).toEqual({ concurrency: "1", scheduler: true });

    await server.kill();
    await server.start();

    await waitFor(
      async () => {
        const state = await safetyState();
        return state.concurrency === "1" && state.scheduler;
      },
      { timeoutMs: 20_000, what: "the global concurrency and the scheduler to be back" },
    );
    // They were gone, and the worker put them back.
    expect(h.logs.some((line) => line.msg === "queue global concurrency was missing; set to 1 again")).toBe(true);
  });

  test("restored by the periodic check when they vanish while the connection stays up", async () => {
    await h.startWorker(workerSettings(1_000));
    expect(await safetyState()).toEqual({ concurrency: "1", scheduler: true });

    // Lost without a disconnection (FLUSHALL by an operator, a failover to an empty replica).
    await probe.flushall();

    await waitFor(
      async () => {
        const state = await safetyState();
        return state.concurrency === "1" && state.scheduler;
      },
      { timeoutMs: 10_000, what: "the periodic check to restore them" },
    );
    expect(h.logs.some((line) => line.msg === "queue global concurrency was missing; set to 1 again")).toBe(true);
  });
});
