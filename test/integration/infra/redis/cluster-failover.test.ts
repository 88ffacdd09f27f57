/**
 * A Redis Cluster master dies (SIGKILL) while a worker process runs a project's job, and its
 * replica takes over (3 masters with one replica each, cluster-node-timeout 1 s: own-redis-cluster.ts).
 * The master is killed as the service accepts a write, so the job's next Redis write meets it dead.
 * (a) and (b) kill the master of the project's slot, with the service budget's tag put on the
 * same master: the queue, the job's lock, the project's state and the budget's window go down
 * and come back together. (c) kills the budget's master only: the job's keys stay up, and the
 * budget alone stands between the sync and the service. What must hold: the worker process
 * stays up and goes on (the attempt under way is neither failed nor stalled), the service ends
 * where a clean sync ends (exact options), no add-options request is lost or written twice, and
 * the shared budget never lets more requests through than it allows, before, during or after.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { serviceBudgetOf } from "../../../../src/infra/budgets/budget-identity.js";
import { createBullmqClusterConnection } from "../../../../src/jobs/queues/create-bullmq-connection.js";
import { createJobQueues, type JobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { createKeyspace } from "../../../../src/infra/redis/keyspace.js";
import type { RedisClient } from "../../../../src/infra/redis/redis-client.js";
import { serviceConnectionSchema } from "../../../../src/settings/settings-schema.js";
import { startSimulators, type RunningSimulators } from "../../../../sim/start-simulators.js";
import { startOwnRedisCluster, type OwnRedisCluster } from "../../../support/own-redis-cluster.js";
import { peakInWindow, peakOverlap } from "../../../support/peak-window.js";
import {
  assertCliBuilt,
  killLeftoverProcesses,
  servingUrlOf,
  startWorkerCli,
  waitForExit,
  type CliProcess,
} from "../../../support/process-cli.js";
import { SIM_CREDENTIALS, testConfigObject } from "../../../support/process-config.js";
import { cleanSyncEndState, collectionsOf, waitForJobState, type CollectionsByName } from "../../../support/process-jobs.js";
import { waitFor } from "../../../support/wait-for.js";

const PROJECT = 67;
const PREFIX = "failover";
/** Process-level waits add up on a busy machine (worker start, promotion, the job): more than the suite's 60 s. */
const TEST_TIMEOUT_MS = 150_000;
const TRIGGER_TOKEN = "failover-test-trigger-token";
/** The service budget the config gives (the simulator itself allows 10 a second). */
const SERVICE_PER_SECOND = 3;
const REQUESTS: readonly { attribute: string; name: string }[] = ["teal", "navy", "olive", "plum"]
  .map((name) => ({ attribute: "color", name }))
  .concat(["silk", "wool", "linen", "felt"].map((name) => ({ attribute: "material", name })))
  .concat(["xxl", "xxs", "s3xl", "s4xl"].map((name) => ({ attribute: "size_eu", name })));
/** The collections of color (1), material (3) and size_eu (4): one add-options call each when the batch runs once. */
const COLLECTIONS_WRITTEN = 8;
const isAddOptions = (request: { method: string; path: string; status: number }): boolean =>
  request.method === "PATCH" && request.path.endsWith("/add-options/") && request.status === 200;

describe("Redis Cluster failover: a master is killed mid-job, its replica takes over", () => {
  let reference: CollectionsByName;
  let cluster: OwnRedisCluster;
  let sims: RunningSimulators;
  let dir: string;
  let producer: RedisClient | undefined;
  let queues: JobQueues | undefined;

  beforeAll(async () => {
    assertCliBuilt();
    reference = (await cleanSyncEndState()).collections;
  });

  beforeEach(async () => {
    // A cluster per test: after a failover the promoted master has no replica left. A node timeout
    // of 4 s: 1 s, then 2 s, let a loaded machine (CI's, with the suite running) fail a master
    // over before the test killed anything; each test also starts from replicatedMasters().
    cluster = await startOwnRedisCluster(3, { replicas: 1, nodeTimeoutMs: 4_000 });
    sims = await startSimulators();
    dir = await mkdtemp(join(tmpdir(), "pim-sync-cluster-failover-"));
  });

  afterEach(async () => {
    await killLeftoverProcesses();
    await queues?.close().catch(() => undefined);
    queues = undefined;
    producer?.disconnect();
    producer = undefined;
    await sims.close();
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * A service budget name whose tag hashes to the same master as the project's tag: the
   * failover then takes the budget's keys down with the project's.
   */
  async function budgetNameBeside(master: string): Promise<string> {
    for (let i = 0; i < 100; i += 1) {
      const name = `failover-${i}`;
      const identity = serviceBudgetOf(
        serviceConnectionSchema.parse({ url: sims.service.url, token: SIM_CREDENTIALS.serviceToken, budget: name }),
      );
      if ((await cluster.masterOf(`{budget-${identity}}`)) === master) return name;
    }
    throw new Error(`no budget name of the 100 tried hashes to ${master}`);
  }

  /** The worker's config: every node of the cluster as a startup node, the service budget beside the project. */
  async function writeConfig(budgetName: string): Promise<string> {
    const config = testConfigObject({
      pimUrl: sims.pim.url,
      serviceUrl: sims.service.url,
      redisPrefix: PREFIX,
      logLevel: "info",
      serviceExtras: { requests_per_second: SERVICE_PER_SECOND, budget: budgetName },
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color", "material", "size_eu"] },
      // The product's default lock (30 s) outlives the failover (2-3 s here, more on a busy machine): see docs/redis-cluster.md.
      worker: { lock_duration_ms: 30_000, stalled_interval_ms: 15_000 },
      trigger: { token: TRIGGER_TOKEN },
      server: { host: "127.0.0.1", port: 0 },
    });
    const path = join(dir, "config.json");
    await writeFile(path, JSON.stringify({ ...config, redis: { cluster: { nodes: cluster.allNodes }, prefix: PREFIX } }));
    return path;
  }

  function openQueues(): JobQueues {
    producer = createBullmqClusterConnection(cluster.allNodes, "worker");
    // The producer sees the master go too; its commands wait for the cluster (worker role).
    producer.on("error", () => undefined);
    queues = createJobQueues({
      connection: producer,
      prefix: PREFIX,
      projects: [PROJECT],
      retention: { keep_completed_days: 1, keep_failed_days: 1 },
    });
    return queues;
  }

  /**
   * Kills `master` as the service accepts the `nth` write of `kind`, before it answers: the
   * job's next Redis write (the state it records, the outcome of a request) meets a dead master.
   * Resolves once the master has exited.
   */
  function killOnWrite(master: string, kind: "update-options" | "add-options", nth: number): Promise<void> {
    let seen = 0;
    return new Promise((resolve, reject) => {
      const stop = sims.service.onWrite((_collection, write) => {
        if (write.kind !== kind || (seen += 1) < nth) return;
        stop();
        cluster.kill(master).then(resolve, reject);
      });
    });
  }

  /** What every upstream budget must show, whatever happened to Redis: no 429, never more than allowed in any window or in flight. */
  function expectBudgetsHeld(): void {
    const service = sims.service.requests;
    const pim = sims.pim.requests;
    expect(service.filter((request) => request.status === 429)).toEqual([]);
    expect(pim.filter((request) => request.status === 429)).toEqual([]);
    expect(
      peakInWindow(
        service.map((request) => request.startedAt),
        1000,
      ),
    ).toBeLessThanOrEqual(SERVICE_PER_SECOND);
    expect(
      peakInWindow(
        pim.map((request) => request.startedAt),
        1000,
      ),
    ).toBeLessThanOrEqual(100);
    expect(peakOverlap(pim.filter((request) => request.authScheme === "Bearer"))).toBeLessThanOrEqual(4);
  }

  /** The service budget's window is served by the promoted replica and counts the requests made after the failover. */
  async function expectBudgetOn(promoted: string, budgetName: string): Promise<void> {
    const identity = serviceBudgetOf(
      serviceConnectionSchema.parse({ url: sims.service.url, token: SIM_CREDENTIALS.serviceToken, budget: budgetName }),
    );
    const windowKey = createKeyspace(PREFIX, { cluster: true }).budgetKey(identity, "window");
    const node = new Redis(promoted, { maxRetriesPerRequest: 1 });
    try {
      // A plain connection to one node: it answers for the key only if that node serves its slot.
      await waitFor(async () => (await node.zcard(windowKey)) > 0, {
        timeoutMs: 30_000,
        what: `the budget window ${windowKey} on ${promoted}`,
      });
    } finally {
      node.disconnect();
    }
  }

  /** The worker saw its node go (one warning naming it), and did not fail or stall a job over it. */
  function expectWorkerWentOn(worker: CliProcess, master: string): void {
    expect(worker.hasExited(), `the worker died with its master:\n${worker.stderr().slice(-2000)}`).toBe(false);
    const gone = worker.logs().filter((line) => line.msg?.startsWith("a Redis Cluster node is gone") === true);
    expect(gone.map((line) => line.node)).toContain(`127.0.0.1:${new URL(master).port}`);
    const trouble = worker
      .logs()
      .filter((line) => line.msg === "job failed" || line.msg?.startsWith("job stalled") === true || line.msg === "worker error");
    expect(trouble).toEqual([]);
  }

  it(
    "(a) in the middle of a full sync: the worker goes on, the sync completes in its attempt, the service ends as a clean sync does, the budget holds",
    async () => {
      await cluster.replicatedMasters();
      const master = await cluster.masterOf(`{project-${PROJECT}}`);
      const budgetName = await budgetNameBeside(master);
      const worker = await startWorkerCli(await writeConfig(budgetName), 30_000);
      const jobs = openQueues();
      // The third of 13 collections: the sync records it in Redis, and has 10 more to write.
      const killed = killOnWrite(master, "update-options", 3);
      const { jobId } = await jobs.enqueue("sync.run", { project: PROJECT, full: true, trigger: "cli" });
      await killed;

      const promoted = await cluster.waitForPromotion(master, 30_000);
      expect(promoted).not.toBe(master);
      await expectBudgetOn(promoted, budgetName);
      const done = await waitForJobState(jobs, PROJECT, jobId, "completed", 60_000);
      // The attempt under way when the master died went on: no failed attempt, no stall.
      expect({ attemptsMade: done.attemptsMade, stalledCounter: done.stalledCounter, failedReason: done.failedReason ?? "" }).toEqual({
        attemptsMade: 1,
        stalledCounter: 0,
        failedReason: "",
      });
      expect(collectionsOf(sims.service)).toEqual(reference);
      expectBudgetsHeld();
      expectWorkerWentOn(worker, master);

      worker.signal("SIGTERM");
      expect(await waitForExit(worker, 30_000)).toEqual({ code: 0, signal: null });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "(b) in the middle of a merged add-options batch: every request answered done, each option once in the service and the PIM, the budget holds",
    async () => {
      await cluster.replicatedMasters();
      const master = await cluster.masterOf(`{project-${PROJECT}}`);
      const budgetName = await budgetNameBeside(master);
      const configPath = await writeConfig(budgetName);
      const jobs = openQueues();
      // Queued before the worker starts: they wait together, so one job carries them all.
      const ids: string[] = [];
      for (const { attribute, name } of REQUESTS)
        ids.push((await jobs.enqueue("options.add", { project: PROJECT, attribute, options: [{ name }] })).jobId);
      // The second of 8 collections: the batch records its outcome in Redis after the last one.
      const killed = killOnWrite(master, "add-options", 2);
      const worker = await startWorkerCli(configPath, 30_000);
      const base = await servingUrlOf(worker, 30_000);
      await killed;

      const promoted = await cluster.waitForPromotion(master, 30_000);
      expect(promoted).not.toBe(master);
      await expectBudgetOn(promoted, budgetName);
      const done = await Promise.all(ids.map((id) => waitForJobState(jobs, PROJECT, id, "completed", 60_000)));
      const [leader, ...merged] = done;
      expect(merged.map((job) => (job.returnvalue as { merged_into: string | null }).merged_into)).toEqual(merged.map(() => leader?.id));
      expect({ attemptsMade: leader?.attemptsMade, stalledCounter: leader?.stalledCounter }).toEqual({
        attemptsMade: 1,
        stalledCounter: 0,
      });
      // Each request, as its caller polls it: done, its option added.
      for (const id of ids) {
        const answer = await fetch(`${base}/v1/jobs/${PROJECT}/${id}`, { headers: { authorization: `Bearer ${TRIGGER_TOKEN}` } });
        expect(answer.status).toBe(200);
        expect(await answer.json()).toMatchObject({ state: "completed", result: { status: "added" } });
      }
      // Nothing lost, nothing twice: one add-options call per collection, each option once where it belongs.
      expect(sims.service.requests.filter(isAddOptions)).toHaveLength(COLLECTIONS_WRITTEN);
      for (const { attribute, name } of REQUESTS) {
        const collections = sims.service
          .collections()
          .filter((c) => c.project === PROJECT && (c.name === attribute || c.name.startsWith(`${attribute}-`)));
        expect(collections.length).toBeGreaterThan(0);
        for (const collection of collections)
          expect(
            collection.options.filter((option) => option.name === name),
            `${name} in ${collection.name}`,
          ).toHaveLength(1);
        expect(
          (sims.pim.state.attribute_options[attribute] ?? []).filter((option) => option.code === name),
          `${name} in the PIM`,
        ).toHaveLength(1);
      }
      expectBudgetsHeld();
      expectWorkerWentOn(worker, master);

      worker.signal("SIGTERM");
      expect(await waitForExit(worker, 30_000)).toEqual({ code: 0, signal: null });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "(c) the master of the service budget's slot (not the project's) mid-sync: no request goes out unbudgeted while the budget waits for its replica",
    async () => {
      const masters = await cluster.replicatedMasters();
      const projectMaster = await cluster.masterOf(`{project-${PROJECT}}`);
      const master = masters.find((node) => node !== projectMaster) ?? "";
      const budgetName = await budgetNameBeside(master);
      const worker = await startWorkerCli(await writeConfig(budgetName), 30_000);
      const jobs = openQueues();
      // The job's own keys stay up: only the budget stands between the sync and the service.
      const killed = killOnWrite(master, "update-options", 3);
      const { jobId } = await jobs.enqueue("sync.run", { project: PROJECT, full: true, trigger: "cli" });
      await killed;

      const promoted = await cluster.waitForPromotion(master, 30_000);
      await expectBudgetOn(promoted, budgetName);
      const done = await waitForJobState(jobs, PROJECT, jobId, "completed", 60_000);
      expectBudgetsHeld();
      expect({ attemptsMade: done.attemptsMade, stalledCounter: done.stalledCounter, failedReason: done.failedReason ?? "" }).toEqual({
        attemptsMade: 1,
        stalledCounter: 0,
        failedReason: "",
      });
      expect(collectionsOf(sims.service)).toEqual(reference);
      expectWorkerWentOn(worker, master);

      worker.signal("SIGTERM");
      expect(await waitForExit(worker, 30_000)).toEqual({ code: 0, signal: null });
    },
    TEST_TIMEOUT_MS,
  );
});
