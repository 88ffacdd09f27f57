/**
 * pim-sync on a real Redis Cluster (3 masters of the test's own, own-redis-cluster.ts): the
 * worker scenarios that matter run with `redis.cluster`, and each project's keys stay in its
 * own slot while projects spread over the masters. Without the hash tags of keyspace.ts these
 * fail with CROSSSLOT (BullMQ's scripts and the state store's transactions span several keys).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBullmqClusterConnection } from "../../../../src/jobs/queues/create-bullmq-connection.js";
import { createJobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { createJobFinalStatusStore } from "../../../../src/jobs/admin/job-final-status-store.js";
import { keyspaceOf } from "../../../../src/infra/redis/keyspace.js";
import { closeRedis } from "../../../../src/infra/redis/close-redis.js";
import { createRedisStateStore } from "../../../../src/stores/state/redis-state-store.js";
import { createProjectLock, type ProjectLease } from "../../../../src/stores/state/project-lock.js";
import { settingsSchema } from "../../../../src/settings/settings-schema.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { REFUSED_PORT } from "../../../support/refused-port.js";
import { runCli } from "../../../../src/cli/main.js";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import { startActivationSimulator } from "../../../../sim/activation/activation-simulator.js";
import { captureIo } from "../../../support/capture-io.js";
import { ACTIVATION_ENV, activationConfig, writeActivationConfig } from "../../features/activation/activation-test-config.js";
import { startOwnRedisCluster, type OwnRedisCluster } from "../../../support/own-redis-cluster.js";
import {
  assertCliBuilt,
  killLeftoverProcesses,
  spawnCli,
  startWorkerCli,
  waitForExit,
  type CliProcess,
} from "../../../support/process-cli.js";
import { scanKeys } from "../../../support/redis.js";
import { createRedisBudgets } from "../../../../src/infra/budgets/upstream-budgets.js";
import {
  FAST_ADD_OPTIONS,
  FAST_HTTP,
  FAST_WORKER,
  finishedJob,
  isDrained,
  jobInState,
  PIM_API,
  PROJECT,
  serviceOptions,
  startWorkerHarness,
  type WorkerHarness,
} from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";

const ADD_OPTIONS_PATH = /\/add-options\/$/;
const TRIGGER_TOKEN = "cluster-test-trigger-token";
const ADMIN_PASSWORD = "cluster-test-admin-password";

describe("Redis Cluster: the worker with redis.cluster", () => {
  let cluster: OwnRedisCluster;
  let h: WorkerHarness | undefined;
  let dir: string | undefined;
  let running: AppWorker | undefined;

  beforeAll(async () => {
    assertCliBuilt();
    cluster = await startOwnRedisCluster(3);
  });
  afterAll(async () => {
    await cluster.close();
  });
  afterEach(async () => {
    await killLeftoverProcesses();
    await running?.stop();
    running = undefined;
    await h?.close();
    h = undefined;
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function startHarness(): Promise<WorkerHarness> {
    h = await startWorkerHarness({ clusterNodes: cluster.nodes });
    return h;
  }

  /** A config file as a user writes it, pointing at the cluster's nodes and the harness' simulators. */
  async function configFile(harness: WorkerHarness): Promise<string> {
    dir = await mkdtemp(join(tmpdir(), "pim-sync-cluster-config-"));
    const path = join(dir, "config.json");
    const config = {
      redis: { cluster: { nodes: cluster.nodes }, prefix: harness.redis.prefix },
      log_level: "info",
      http: FAST_HTTP,
      worker: { ...FAST_WORKER, max_stalled_count: 2 },
      add_options: FAST_ADD_OPTIONS,
      projects: [harness.project(PROJECT)],
    };
    await writeFile(path, JSON.stringify(config));
    return path;
  }

  async function cli(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
    const run = spawnCli(args);
    const status = await waitForExit(run, 30_000);
    return { code: status.code, out: run.stdout(), err: run.stderr() };
  }

  it("syncs a project (then a --full sync); its state lives under the project's hash tag", async () => {
    const harness = await startHarness();
    await harness.startWorker();
    const first = await harness.queues.enqueue("sync.run", { project: PROJECT });
    expect((await finishedJob(harness.queue(), first.jobId)).state).toBe("completed");
    expect(serviceOptions(harness.service, "color").length).toBeGreaterThan(0);

    // A full sync replaces each collection (a MULTI over the collection and the `known` set) and
    // records its progress per collection.
    const full = await harness.queues.enqueue("sync.run", { project: PROJECT, full: true });
    const done = await finishedJob(harness.queue(), full.jobId);
    expect(done.state).toBe("completed");
    expect(done.job.failedReason ?? "").toBe("");

    const keys = await harness.redis.keys();
    const prefix = harness.redis.prefix;
    expect(keys).toContain(`${prefix}:state:{project-67}:known`);
    expect(keys).toContain(`${prefix}:state:{project-67}:c:color`);
    expect(keys).toContain(`${prefix}:{project-67}:meta`);
    // Nothing under the single-server names.
    expect(keys.filter((key) => key.startsWith(`${prefix}:state:67:`) || key.startsWith(`${prefix}:project-67:`))).toEqual([]);
  });

  it("shared upstream budgets on the cluster: each identity's window, pause and slots under its own tag; two connections share the window and a pause", async () => {
    const harness = await startHarness();
    const cluster1 = harness.redis.redis;
    const cluster2 = cluster1.duplicate();
    try {
      const budgetsOf = (redis: typeof cluster1) =>
        createRedisBudgets({
          redis,
          keyspace: keyspaceOf(redis, harness.redis.prefix),
          leaseMs: 2_000,
          maxPauseMs: 60_000,
          logger: silentLogger(),
        });
      const [one, two] = [budgetsOf(cluster1), budgetsOf(cluster2)];
      const identities = ["service-n-cluster-a", "service-n-cluster-b"];
      const settles = await Promise.all(
        identities.flatMap((identity) => Array.from({ length: 5 }, () => one.rate(identity, { limit: 5 }, "67").acquire())),
      );
      for (const settle of settles) settle();
      const ran = await one.slots([{ identity: "pim-connection-n-cluster", limit: 4 }], "67").run(async () => {
        expect(await cluster1.zcard(`${harness.redis.prefix}:budget:{budget-pim-connection-n-cluster}:slots`)).toBe(1);
        return "ran";
      });
      expect(ran).toBe("ran");
      const keys = await harness.redis.keys();
      for (const identity of identities) expect(keys).toContain(`${harness.redis.prefix}:budget:{budget-${identity}}:window`);
      // The window of identity a is full (5 in the last second): the other connection waits for it, then for a pause.
      two.rate(identities[0] ?? "", { limit: 5 }, "99").pauseFor(1_500);
      const pauseKey = `${harness.redis.prefix}:budget:{budget-${identities[0] ?? ""}}:pause`;
      await waitFor(async () => (await cluster1.pttl(pauseKey)) > 0, { timeoutMs: 5_000, what: "the pause to be set on the cluster" });
      const settle = await one.rate(identities[0] ?? "", { limit: 5 }, "67").acquire();
      expect(await cluster1.pttl(pauseKey)).toBeLessThanOrEqual(0);
      settle();
    } finally {
      cluster2.disconnect();
    }
  });

  it("add-options with an Idempotency-Key: one job, the redelivery a duplicate, the option in the service and the PIM", async () => {
    const harness = await startHarness();
    await harness.startWorker();
    const request = { project: PROJECT, attribute: "color", options: [{ name: "teal", label: { "en-US": "Teal" } }] };
    const added = await harness.queues.enqueue("options.add", request, { idempotencyKey: "delivery-1" });
    const again = await harness.queues.enqueue("options.add", request, { idempotencyKey: "delivery-1" });
    expect(added.status).toBe("queued");
    expect(again).toEqual({ ...added, status: "duplicate" });

    expect((await finishedJob(harness.queue(), added.jobId)).state).toBe("completed");
    expect(serviceOptions(harness.service, "color")).toContainEqual({ name: "teal", label: { "en-US": "Teal" } });
    expect(harness.pim.state.attribute_options.color?.map((option) => option.code)).toContain("teal");
    expect(harness.service.requests.filter((r) => r.method === "PATCH" && ADD_OPTIONS_PATH.test(r.path))).toHaveLength(1);
    expect(await harness.redis.keys()).toContainEqual(
      expect.stringMatching(new RegExp(`^${harness.redis.prefix.replace(/\./g, "\\.")}:idempotency:\\{project-67\\}:[0-9a-f]{32}$`)),
    );
  });

  it("merged add-options: requests waiting together are carried out by one job; their outcomes (one MULTI) and intents sit under the project's tag", async () => {
    const harness = await startHarness();
    await harness.queue().pause();
    await harness.startWorker();
    const ids = [];
    for (const name of ["teal", "navy", "ochre"])
      ids.push((await harness.queues.enqueue("options.add", { project: PROJECT, attribute: "color", options: [{ name }] })).jobId);
    await harness.queue().resume();
    const done = await Promise.all(ids.map((id) => finishedJob(harness.queue(), id)));
    expect(done.map((d) => d.state)).toEqual(["completed", "completed", "completed"]);
    expect(done.slice(1).map((d) => (d.job.returnvalue as { merged_into: string | null }).merged_into)).toEqual([ids[0], ids[0]]);
    // One add-options call carried the three options.
    expect(harness.service.requests.filter((r) => r.method === "PATCH" && ADD_OPTIONS_PATH.test(r.path))).toHaveLength(1);
    expect(serviceOptions(harness.service, "color").map((o) => o.name)).toEqual(expect.arrayContaining(["teal", "navy", "ochre"]));
    // What each request was adding was written (one MULTI per write) under the same tag.
    const intentKeys = (await harness.redis.keys()).filter((key) => key.includes(":add-intent:"));
    expect(intentKeys.sort()).toEqual(ids.map((id) => `${harness.redis.prefix}:add-intent:{project-67}:${id}`).sort());
  });

  it("dedup: a sync requested while one waits merges into it, keeping --full", async () => {
    const harness = await startHarness();
    const waiting = await harness.queues.enqueue("sync.run", { project: PROJECT, requested_by: "plain" });
    const merged = await harness.queues.enqueue("sync.run", { project: PROJECT, full: true, requested_by: "full" });
    expect(waiting.status).toBe("queued");
    expect(merged).toEqual({ project: PROJECT, jobId: waiting.jobId, status: "merged" });
    expect((await harness.queue().getJob(waiting.jobId))?.data).toMatchObject({ full: true });

    await harness.startWorker();
    expect((await finishedJob(harness.queue(), waiting.jobId)).state).toBe("completed");
    expect(await isDrained(harness.queue())).toBe(true);
    expect((await harness.queue().getJobs(["completed"], 0, -1)).map((job) => job.id)).toEqual([waiting.jobId]);
  });

  it("replay: `jobs retry` (the CLI, on the cluster) replays a failed job, which then completes", async () => {
    const harness = await startHarness();
    const configPath = await configFile(harness);
    harness.service.faults.failNext({ method: "PATCH", path: ADD_OPTIONS_PATH }, { status: 404, times: 50 });
    await harness.startWorker();
    const job = await harness.queues.enqueue("options.add", { project: PROJECT, attribute: "color", options: [{ name: "plum" }] });
    expect((await finishedJob(harness.queue(), job.jobId)).state).toBe("failed");

    harness.service.faults.clear();
    const ref = `${PROJECT}/${job.jobId}`;
    expect(await cli("jobs", "retry", ref, "--config", configPath)).toEqual({ code: 0, out: `${ref}: retried\n`, err: "" });
    expect((await finishedJob(harness.queue(), job.jobId)).state).toBe("completed");
    expect(serviceOptions(harness.service, "color").map((option) => option.name)).toContain("plum");
    const listed = await cli("jobs", "list", "--config", configPath, "--state", "completed", "--json");
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.out) as { ref: string }[]).map((entry) => entry.ref)).toEqual([ref]);
  });

  it("SIGKILL: the worker process running a sync is killed; the other process recovers the stalled job", async () => {
    const harness = await startHarness();
    const configPath = await configFile(harness);
    const workers: CliProcess[] = await Promise.all([startWorkerCli(configPath, 20_000), startWorkerCli(configPath, 20_000)]);
    // The PIM holds the sync's reads until its worker is killed: it is certainly in the middle.
    const gate = harness.pim.holdRequests({ path: PIM_API });
    const sync = await harness.queues.enqueue("sync.run", { project: PROJECT });
    const runner = await waitFor(
      () => workers.find((worker) => worker.logs().some((line) => line.msg === "job started" && line.job === sync.jobId)),
      { timeoutMs: 20_000, what: "a worker process to start the sync" },
    );
    const other = workers.find((worker) => worker !== runner);
    if (!other) throw new Error("two workers were started");
    await gate.reached(1, 20_000);
    runner.signal("SIGKILL");
    expect(await waitForExit(runner, 10_000)).toEqual({ code: null, signal: "SIGKILL" });
    expect(await jobInState(harness.queue(), sync.jobId, ["active"])).not.toBeNull();
    gate.open();

    const done = await finishedJob(harness.queue(), sync.jobId, 40_000);
    expect(done.state).toBe("completed");
    expect(done.job.stalledCounter).toBeGreaterThanOrEqual(1);
    await other.waitForLog(
      (line) => line.job === sync.jobId && line.msg === "job completed",
      5_000,
      "'job completed' from the other worker",
    );
    expect(other.logs().some((line) => line.job === sync.jobId && typeof line.msg === "string" && line.msg.startsWith("job stalled"))).toBe(
      true,
    );
    other.signal("SIGTERM");
    expect(await waitForExit(other, 25_000)).toEqual({ code: 0, signal: null });
  });

  it("the worker process on the cluster: /readyz, triggers with an Idempotency-Key, /metrics, the admin API and bull-board", async () => {
    const harness = await startHarness();
    const settings = settingsSchema.parse({
      redis: { cluster: { nodes: cluster.nodes }, prefix: harness.redis.prefix },
      log_level: "silent",
      http: FAST_HTTP,
      worker: FAST_WORKER,
      add_options: FAST_ADD_OPTIONS,
      server: { host: "127.0.0.1", port: 0, admin: { users: [{ name: "ops", password: ADMIN_PASSWORD, role: "admin" }] } },
      trigger: { token: TRIGGER_TOKEN },
      projects: [harness.project(PROJECT)],
    });
    running = await startAppWorker({ settings, logger: silentLogger() });
    const base = running.serverUrl ?? "";
    const admin = { authorization: `Basic ${Buffer.from(`ops:${ADMIN_PASSWORD}`).toString("base64")}` };

    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const trigger = async (): Promise<{ status: number; body: { job_id: string; status: string } }> => {
      const response = await fetch(`${base}/v1/add-options`, {
        method: "POST",
        headers: { authorization: `Bearer ${TRIGGER_TOKEN}`, "content-type": "application/json", "idempotency-key": "pim-event-1" },
        body: JSON.stringify({ project: PROJECT, attribute: "color", options: [{ name: "teal" }] }),
      });
      return { status: response.status, body: (await response.json()) as { job_id: string; status: string } };
    };
    const first = await trigger();
    const again = await trigger();
    expect(first).toMatchObject({ status: 202, body: { status: "queued" } });
    expect(again).toEqual({ status: 202, body: { job_id: first.body.job_id, status: "duplicate" } });
    const jobId = first.body.job_id.slice(`${PROJECT}/`.length);
    expect((await finishedJob(harness.queue(), jobId)).state).toBe("completed");

    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`^pim_sync_jobs\\{project="${PROJECT}",queue_state="completed"\\} 1$`, "m"));
    const listed = (await (await fetch(`${base}/admin/api/jobs`, { headers: admin })).json()) as { jobs: { ref: string }[] };
    expect(listed.jobs.map((job) => job.ref)).toEqual([first.body.job_id]);
    // bull-board lists the queues by their (tagged) names.
    const board = await fetch(`${base}/admin/api/queues`, { headers: admin });
    expect(board.status).toBe(200);
    expect(((await board.json()) as { queues: { name: string }[] }).queues.map((queue) => queue.name)).toEqual(["{project-67}"]);
  });

  it("Activation on the cluster: `enqueue activation-orders` queues a pull on {activation}; the worker writes the orders once", async () => {
    const harness = await startHarness();
    const sim = await startActivationSimulator();
    try {
      dir = await mkdtemp(join(tmpdir(), "pim-sync-cluster-activation-"));
      const ordersDir = join(dir, "orders");
      const config = {
        ...activationConfig({
          activationUrl: sim.url,
          stateDir: join(dir, "state"),
          activation: { orders: { connections: ["amazon-fr"], sink: { type: "file", dir: ordersDir } } },
        }),
        redis: { cluster: { nodes: cluster.nodes }, prefix: harness.redis.prefix },
      };
      const configPath = await writeActivationConfig(dir, config);
      running = await startAppWorker({
        settings: parseSettings(JSON.stringify(config), "cluster-activation", ACTIVATION_ENV),
        logger: silentLogger(),
      });
      const activationQueue = running.activation?.queue.queue;
      if (!activationQueue) throw new Error("the worker runs no Activation queue");
      expect(activationQueue.name).toBe("{activation}");

      const pull = async (): Promise<string> => {
        const io = captureIo(ACTIVATION_ENV);
        expect(await runCli(["enqueue", "activation-orders", "--config", configPath, "--connection", "amazon-fr", "--json"], io)).toBe(0);
        const id = (JSON.parse(io.out()) as { job_id: string }).job_id.slice("activation/".length);
        expect((await finishedJob(activationQueue, id, 20_000)).state).toBe("completed");
        return id;
      };
      await pull();
      const day = new Date().toISOString().slice(0, 10);
      const lines = async (): Promise<number> =>
        (await readFile(join(ordersDir, `amazon-fr-${day}.ndjson`), "utf8")).split("\n").filter((line) => line !== "").length;
      expect(await lines()).toBe(7);
      // The pull state (a hash under {activation}) says they were written: the next pull adds none.
      await pull();
      expect(await lines()).toBe(7);
      expect(await harness.redis.keys()).toContain(`${harness.redis.prefix}:activation:{activation}:amazon-fr:orders`);
    } finally {
      await running?.stop();
      running = undefined;
      await sim.close();
    }
  });

  it("a command whose cluster does not answer gives up after connect_timeout_ms in one line, the nodes' password redacted", async () => {
    const harness = await startHarness();
    dir = await mkdtemp(join(tmpdir(), "pim-sync-cluster-config-"));
    const configPath = join(dir, "config.json");
    const nodes = [`redis://:cluster-pass-word@127.0.0.1:${REFUSED_PORT}`, `redis://:cluster-pass-word@127.0.0.2:${REFUSED_PORT}`];
    await writeFile(
      configPath,
      JSON.stringify({
        redis: { cluster: { nodes }, prefix: "unanswered", connect_timeout_ms: 500 },
        projects: [harness.project(PROJECT)],
      }),
    );
    const listed = await cli("jobs", "list", "--config", configPath);
    expect(listed.code).toBe(1);
    expect(listed.out).toBe("");
    expect(listed.err).toMatch(
      /^pim-sync jobs: failed: Redis at the cluster of redis:\/\/:\*\*\*@127\.0\.0\.1:9, redis:\/\/:\*\*\*@127\.0\.0\.2:9 is not answering: .*\(gave up after 500 ms, redis\.connect_timeout_ms\)\n$/,
    );
    expect(listed.err).not.toContain("cluster-pass-word");
  });

  it("projects spread over the masters: every key of a project on its tag's master, three projects on three masters", async () => {
    const harness = await startHarness();
    const prefix = harness.redis.prefix;
    // Their tags {project-67}, {project-2}, {project-11} hash into the three masters' slot ranges.
    const projects = [67, 2, 11];
    const connection = createBullmqClusterConnection(cluster.nodes, "producer");
    const queues = createJobQueues({ connection, prefix, projects, retention: { keep_completed_days: 1, keep_failed_days: 1 } });
    try {
      const state = createRedisStateStore(connection, prefix);
      const lock = createProjectLock(connection, prefix, { ttlMs: 10_000 });
      const statuses = createJobFinalStatusStore(connection, keyspaceOf(connection, prefix), 60);
      const leases: ProjectLease[] = [];
      for (const project of projects) {
        const sync = await queues.enqueue("sync.run", { project });
        const job = await queues.queueFor(project).getJob(sync.jobId);
        if (!job) throw new Error(`no job ${sync.jobId}`);
        await statuses.record(project, job, "completed");
        await queues.enqueue(
          "options.add",
          { project, attribute: "color", options: [{ name: "teal" }] },
          { idempotencyKey: `key-${project}` },
        );
        await state.replace(project, "color", [{ name: "red", label: {} }]);
        leases.push(await lock.tryAcquire(project, "the test"));
      }
      const masters = new Map<number, string>();
      for (const project of projects) masters.set(project, await cluster.masterOf(`{project-${project}}`));
      expect(new Set(masters.values()).size).toBe(3);

      // SCAN each master: a project's keys are all there, and nowhere else.
      for (const master of cluster.nodes) {
        const node = new Redis(master, { maxRetriesPerRequest: 1 });
        const keys = await scanKeys(node, `${prefix}*`).finally(() => node.disconnect());
        for (const project of projects) {
          const own = keys.filter((key) => key.includes(`{project-${project}}`));
          if (masters.get(project) === master) {
            expect(own).toContain(`${prefix}:{project-${project}}:meta`);
            expect(own).toContain(`${prefix}:state:{project-${project}}:known`);
            expect(own).toContain(`${prefix}:lock:project:{project-${project}}`);
            expect(own.some((key) => key.startsWith(`${prefix}:idempotency:{project-${project}}:`))).toBe(true);
            expect(own.some((key) => key.startsWith(`${prefix}:job-status:{project-${project}}:`))).toBe(true);
          } else expect(own).toEqual([]);
        }
      }
      for (const lease of leases) await lease.release();
    } finally {
      await queues.close();
      await closeRedis(connection);
    }
  });
});
