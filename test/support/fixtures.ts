/* eslint-disable no-empty-pattern -- vitest reads which fixtures a fixture needs from its first parameter's destructuring: `{}` says none. */
import { test as base } from "vitest";
import { startSimulators, type RunningSimulators } from "../../src/sim/start-simulators.js";
import { killLeftoverProcesses, runningCliProcesses, spawnCli, startWorkerCli, type CliProcess } from "./process-cli.js";
import { createConfigSafeTestRedis } from "./process-redis.js";
import type { TestRedis } from "./redis.js";

/** What a test's CLI fixture starts: every process is killed after the test if still running. */
export interface CliFixture {
  spawn: typeof spawnCli;
  /** Starts `pim-sync worker --config F` and waits until it serves and its worker has started. */
  startWorker(configPath: string, timeoutMs?: number): Promise<CliProcess>;
}

export interface PimSyncFixtures {
  /** A connection to the test Redis with a key prefix of its own; its keys are removed after the test. */
  redis: TestRedis;
  /** The PIM, configuration-service and Activation simulators on ports bound as 0; closed after the test. */
  sims: RunningSimulators;
  /** The real `pim-sync` CLI as child processes; leftovers are killed after the test. */
  cli: CliFixture;
  /** Runs around every test (auto): fails it when it leaves a listening server or a child process behind. */
  leakCheck: void;
}

/**
 * Resources a test may leave behind that outlive it and disturb the next one: a listening server
 * keeps a port and its handlers, a child process its CPU and its Redis keys. Sockets and timers
 * are not counted: connection pools and retry timers end on their own.
 */
const LEAKS = ["TCPServerWrap", "ProcessWrap"] as const;

export type ResourceCounts = Readonly<Record<(typeof LEAKS)[number], number>>;

export function resourceCounts(): ResourceCounts {
  const active = process.getActiveResourcesInfo();
  return Object.fromEntries(LEAKS.map((kind) => [kind, active.filter((resource) => resource === kind).length])) as ResourceCounts;
}

/** What was opened since `before` and is still open, as readable lines; empty when nothing leaked. */
export function openedSince(before: ResourceCounts): string[] {
  const after = resourceCounts();
  const leaked = LEAKS.filter((kind) => after[kind] > before[kind]).map((kind) => `${after[kind] - before[kind]} × ${kind}`);
  if (runningCliProcesses() > 0) leaked.push(`${runningCliProcesses()} × pim-sync process still running`);
  return leaked;
}

/**
 * openedSince, once what is closing has had time to go: a closed server or an exited child
 * leaves Node's list of active resources a little after its 'close' or 'exit' event.
 */
export async function leaksSince(before: ResourceCounts, graceMs = 2_000): Promise<string[]> {
  const deadline = Date.now() + graceMs;
  for (;;) {
    const leaked = openedSince(before);
    if (leaked.length === 0 || Date.now() >= deadline) return leaked;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The one set of fixtures for integration tests (vitest's `test.extend`): ask for `redis`,
 * `sims` or `cli` in a test's arguments and it is set up before the test and torn down after it,
 * in reverse order, whether the test passed or not; no hand-written afterEach. Every test that
 * uses this `test` also gets the leak check.
 */
export const test = base.extend<PimSyncFixtures>({
  leakCheck: [
    async ({}, use) => {
      const before = resourceCounts();
      await use();
      const leaked = await leaksSince(before);
      if (leaked.length > 0) throw new Error(`the test left resources behind: ${leaked.join(", ")} (close what it opened; the fixtures do it for redis, sims and cli)`);
    },
    { auto: true },
  ],
  redis: async ({}, use) => {
    const redis = await createConfigSafeTestRedis();
    try {
      await use(redis);
    } finally {
      await redis.cleanup();
    }
  },
  sims: async ({}, use) => {
    const sims = await startSimulators();
    try {
      await use(sims);
    } finally {
      await sims.close();
    }
  },
  cli: async ({}, use) => {
    try {
      await use({ spawn: spawnCli, startWorker: startWorkerCli });
    } finally {
      await killLeftoverProcesses();
    }
  },
});
