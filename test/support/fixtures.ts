/* eslint-disable no-empty-pattern -- vitest reads which fixtures a fixture needs from its first parameter's destructuring: `{}` says none. */
import { test as base } from "vitest";
import type { JobQueues } from "../../src/jobs/queues/job-queues.js";
import { startSimulators, type RunningSimulators } from "../../sim/start-simulators.js";
import { startOwnRedisServer, type OwnRedisServer, type OwnRedisServerOptions } from "../../testkit/own-redis-server.js";
import { killLeftoverProcesses, runningCliProcesses, spawnCli, startWorkerCli, type CliProcess } from "./process-cli.js";
import { openTestQueues } from "./process-jobs.js";
import { createConfigSafeTestRedis } from "./process-redis.js";
import { PROJECT } from "./sync-harness.js";
import type { TestRedis } from "./redis.js";
import { makeTempDir, removeTempDir, tempDirsLeft } from "./temp-dirs.js";
import { startWorkerHarness, type WorkerHarness } from "./worker-harness.js";

/** What a test's CLI fixture starts: every process is killed after the test if still running. */
export interface CliFixture {
  spawn: typeof spawnCli;
  /** Starts `pim-sync worker --config F` and waits until it serves and its worker has started. */
  startWorker(configPath: string, timeoutMs?: number): Promise<CliProcess>;
}

/** A worker running in the test's own process (`startAppWorker`, `startWorkerHarness`): stopped after the test. */
export interface StoppableWorker {
  stop(): Promise<unknown>;
}

/** Anything closed by a `close()` that settles when it is closed. */
export interface Closable {
  close(): Promise<unknown>;
}

export interface WorkersFixture {
  /** Hands the worker back, to be stopped after the test (again if the test stopped it: stop is idempotent). */
  keep<W extends StoppableWorker>(worker: W): W;
}

export interface HarnessFixture {
  /** `startWorkerHarness(options)`, closed after the test (its workers stopped, its simulators and Redis released). */
  start(options?: Parameters<typeof startWorkerHarness>[0]): Promise<WorkerHarness>;
}

export interface OwnRedisFixture {
  /** A redis-server of the test's own (own-redis-server.ts), killed after the test. */
  start(options?: OwnRedisServerOptions): Promise<OwnRedisServer>;
  /** Hands a client of such a server back, to be disconnected after the test, before the servers are killed. */
  keep<C extends { disconnect(): void }>(client: C): C;
}

export interface PimSyncFixtures {
  /** A connection to the test Redis with a key prefix of its own; its keys are removed after the test. */
  redis: TestRedis;
  /** The PIM, configuration-service and Activation simulators on ports bound as 0; closed after the test. */
  sims: RunningSimulators;
  /** A fresh folder under the system's temp folder; removed with what it holds after the test. */
  tempDir: string;
  /** The projects `queues` opens: 67, unless a describe says `test.override("queueProjects", [...])`. */
  queueProjects: readonly number[];
  /** The project queues (of `queueProjects`) under `redis`'s prefix, on its connection; closed after the test. */
  queues: JobQueues;
  /**
   * Hands back what the test started that closes with `close()` (an echo or scripted HTTP server,
   * an OTLP receiver, a BullMQ queue of its own), to be closed after the test, newest first.
   */
  closeAfter: <T extends Closable>(thing: T) => T;
  /** In-process workers the test started; stopped after the test. */
  workers: WorkersFixture;
  /** Worker harnesses (worker-harness.ts) the test started; closed after the test. */
  harness: HarnessFixture;
  /** redis-servers of the test's own; killed after the test. */
  ownRedis: OwnRedisFixture;
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
  if (runningWorkers.size > 0) leaked.push(`${runningWorkers.size} × in-process worker still running`);
  if (tempDirsLeft() > 0) leaked.push(`${tempDirsLeft()} × temp folder still on disk`);
  return leaked;
}

/** In-process workers kept by the `workers` fixture and not yet stopped (the leak check counts them). */
const runningWorkers = new Set<StoppableWorker>();

/**
 * Releases every item, newest first (what was started last may depend on what came before),
 * each even when an earlier release failed; then throws the first failure.
 */
async function releaseAll<T>(items: readonly T[], release: (item: T) => Promise<unknown>): Promise<void> {
  const failures: unknown[] = [];
  for (const item of [...items].reverse()) {
    try {
      await release(item);
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}

/**
 * A test may close a server it started itself (to start another, or to see what a closed one
 * does); closing it again after the test is then no failure of the test.
 */
function ignoreAlreadyClosed(error: unknown): void {
  if ((error as { code?: unknown } | null)?.code === "ERR_SERVER_NOT_RUNNING") return;
  throw error;
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
 * `sims`, `tempDir`, `queues`, `workers`, `harness`, `ownRedis` or `cli` in a test's arguments
 * (or in a `test.beforeEach`'s) and it is set up before the test and torn down after it, whether
 * the test passed or not; no hand-written afterEach. Vitest sets them up in the order they are
 * declared here and tears them down in reverse: `workers` and `cli` come last, so a worker is
 * stopped and a process killed before the queues, harnesses, redis-servers, Redis keys and
 * simulators it uses go; a harness's workers stop before an own redis-server they may use.
 * Every test that uses this `test` also gets the leak check.
 */
export const test = base.extend<PimSyncFixtures>({
  leakCheck: [
    async ({}, use) => {
      const before = resourceCounts();
      await use();
      const leaked = await leaksSince(before);
      if (leaked.length > 0)
        throw new Error(
          `the test left resources behind: ${leaked.join(", ")} (close what it opened, or let a fixture of test/support/fixtures.ts do it)`,
        );
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
  tempDir: async ({}, use) => {
    const dir = await makeTempDir();
    try {
      await use(dir);
    } finally {
      await removeTempDir(dir);
    }
  },
  ownRedis: async ({}, use) => {
    const started: OwnRedisServer[] = [];
    const clients: { disconnect(): void }[] = [];
    try {
      await use({
        async start(options) {
          const server = await startOwnRedisServer(options);
          started.push(server);
          return server;
        },
        keep(client) {
          clients.push(client);
          return client;
        },
      });
    } finally {
      // A client left connected to a killed server would try to reconnect for ever.
      for (const client of clients) client.disconnect();
      await releaseAll(started, (server) => server.close());
    }
  },
  harness: async ({}, use) => {
    const started: WorkerHarness[] = [];
    try {
      await use({
        async start(options) {
          const harness = await startWorkerHarness(options);
          started.push(harness);
          return harness;
        },
      });
    } finally {
      await releaseAll(started, (harness) => harness.close());
    }
  },
  queueProjects: async ({}, use) => {
    await use([PROJECT]);
  },
  queues: async ({ redis, queueProjects }, use) => {
    const queues = openTestQueues(redis, queueProjects);
    try {
      await use(queues);
    } finally {
      await queues.close();
    }
  },
  closeAfter: async ({}, use) => {
    const kept: Closable[] = [];
    try {
      await use((thing) => {
        kept.push(thing);
        return thing;
      });
    } finally {
      await releaseAll(kept, (thing) => thing.close().catch(ignoreAlreadyClosed));
    }
  },
  workers: async ({}, use) => {
    const kept: StoppableWorker[] = [];
    try {
      await use({
        keep(worker) {
          kept.push(worker);
          runningWorkers.add(worker);
          return worker;
        },
      });
    } finally {
      await releaseAll(kept, async (worker) => {
        await worker.stop();
        runningWorkers.delete(worker);
      });
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
