/**
 * The PIM-event path under the faults the full sync is checked against: events duplicated,
 * reordered and dropped at volume; SIGKILL of the worker in the middle of targeted syncs; Redis
 * killed and restarted while targets are pending. Each ends exactly as a clean full sync of the
 * same PIM ends (a `sync --once` into a fresh service), no option the PIM had is deleted, and
 * every write the service accepted is in the change history. Replay a run with
 * PIM_SYNC_CHAOS_SEED=<seed from the describe's name>.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { allHistory } from "../../../src/stores/history/query-history.js";
import { createRedisHistoryStore } from "../../../src/stores/history/redis-history-store.js";
import { createBullmqConnection } from "../../../src/jobs/queues/create-bullmq-connection.js";
import { createJobQueues, type JobQueues } from "../../../src/jobs/queues/job-queues.js";
import { optionEventData } from "../../../sim/pim/pim-event-emitter.js";
import type { PimSimulator } from "../../../sim/pim/pim-simulator.js";
import { startSimulators, type RunningSimulators } from "../../../sim/start-simulators.js";
import {
  assertCliBuilt,
  killLeftoverProcesses,
  servingUrlOf,
  spawnCli,
  startWorkerCli,
  waitForExit,
  type CliProcess,
} from "../../support/process-cli.js";
import { testConfigObject } from "../../support/process-config.js";
import { allJobs, collectionsOf, waitForJobState, type CollectionsByName } from "../../support/process-jobs.js";
import { waitFor } from "../../support/wait-for.js";
import { createConfigSafeTestRedis } from "../../support/process-redis.js";
import { startOwnRedisServer, type OwnRedisServer } from "../../../testkit/own-redis-server.js";
import type { TestRedis } from "../../support/redis.js";
import { CHAOS_SIZES, chaosSeed, seededRandom } from "../support/chaos-scale.js";
import { chaosCounters } from "../support/chaos-results.js";
import { watchWrites, type WriteWatch } from "../support/write-watch.js";

const PROJECT = 67;
const SECRET = "chaos-event-secret-0123456789";
const SEED = chaosSeed();
const WAIT_MS = 90_000;
/** Attributes whose options the changes touch, and how many options each may lose (under any guard). */
const ATTRIBUTES = ["color", "material", "season", "size_eu"] as const;
const MAX_DELETIONS = 2;

interface Change {
  readonly attribute: string;
  readonly code: string;
  readonly kind: "created" | "updated" | "deleted";
}

/** `count` seeded changes to the PIM's options, each announced by the event the PIM would send. */
function changePim(pim: PimSimulator, random: () => number, count: number, emit: (change: Change) => void): Change[] {
  const changes: Change[] = [];
  const deleted = new Map<string, number>();
  for (let index = 0; index < count; index += 1) {
    const attribute = ATTRIBUTES[Math.floor(random() * ATTRIBUTES.length)] ?? "color";
    const options = pim.state.attribute_options[attribute] ?? [];
    const pick = random();
    let change: Change;
    if (pick < 0.4 || options.length < 3) {
      const code = `chaos_${index}`;
      options.push({ code, sort_order: 500 + index, labels: { en_US: `Chaos ${index}`, fr_FR: `Chaos ${index} (fr)` } });
      change = { attribute, code, kind: "created" };
    } else if (pick < 0.85 || (deleted.get(attribute) ?? 0) >= MAX_DELETIONS) {
      const option = options[Math.floor(random() * options.length)];
      if (option === undefined) continue;
      option.labels = { ...option.labels, en_US: `Relabelled ${index}` };
      change = { attribute, code: option.code, kind: "updated" };
    } else {
      const victim = options[Math.floor(random() * options.length)];
      if (victim === undefined) continue;
      pim.state.attribute_options[attribute] = options.filter((option) => option !== victim);
      deleted.set(attribute, (deleted.get(attribute) ?? 0) + 1);
      change = { attribute, code: victim.code, kind: "deleted" };
    }
    changes.push(change);
    emit(change);
  }
  return changes;
}

function worker0(workers: readonly CliProcess[]): CliProcess {
  const [first] = workers;
  if (first === undefined) throw new Error("no worker started");
  return first;
}

const announce =
  (pim: PimSimulator) =>
  (change: Change): void =>
    pim.events.emit(`attribute-option.${change.kind}`, optionEventData(change.attribute, change.code));

describe(`chaos: the PIM-event path (seed ${SEED})`, () => {
  const results = chaosCounters("event-path");
  const random = seededRandom(SEED);
  let sims: RunningSimulators | undefined;
  let reference: RunningSimulators | undefined;
  let redis: TestRedis | undefined;
  let own: OwnRedisServer | undefined;
  let dir: string | undefined;
  let watch: WriteWatch | undefined;
  const connections: Redis[] = [];
  const openQueues: JobQueues[] = [];

  beforeAll(() => assertCliBuilt());

  afterEach(async () => {
    watch?.stop();
    await killLeftoverProcesses();
    await Promise.allSettled(openQueues.splice(0).map((queues) => queues.close()));
    for (const connection of connections.splice(0)) connection.disconnect();
    await redis?.cleanup();
    await own?.close();
    await sims?.close();
    await reference?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    redis = undefined;
    own = undefined;
  });

  function queuesOn(url: string, prefix: string): JobQueues {
    const connection = createBullmqConnection(url, "worker");
    connection.on("error", () => undefined);
    connections.push(connection);
    const queues = createJobQueues({ connection, prefix, projects: [PROJECT], retention: { keep_completed_days: 1, keep_failed_days: 1 } });
    openQueues.push(queues);
    return queues;
  }

  /** A config for the worker (events on, one project) against `redisUrl` under `prefix`. */
  async function workerConfig(running: RunningSimulators, redisUrl: string, prefix: string, extras: Record<string, unknown> = {}) {
    const config = testConfigObject({
      pimUrl: running.pim.url,
      serviceUrl: running.service.url,
      redisPrefix: prefix,
      logLevel: "info",
      server: { host: "127.0.0.1", port: 0 },
      projectExtras: {
        pim: {
          url: running.pim.url,
          client_id: "sim-client",
          secret: "sim-secret",
          username: "sim-user",
          password: "sim-password",
          events: { secret: SECRET, window_ms: 300, ...extras },
        },
      },
    });
    const path = join(dir ?? "", `worker-${prefix}.json`);
    await writeFile(path, JSON.stringify({ ...config, redis: { url: redisUrl, prefix } }));
    return path;
  }

  async function firstSync(queues: JobQueues): Promise<void> {
    const { jobId } = await queues.enqueue("sync.run", { project: PROJECT, trigger: "cli" });
    await waitForJobState(queues, PROJECT, jobId, "completed", WAIT_MS);
  }

  /** Every targeted sync ended and no target is pending. */
  async function eventsSettled(queues: JobQueues, client: Redis, prefix: string): Promise<void> {
    await waitFor(
      async () => {
        const jobs = (await allJobs(queues, PROJECT)).filter((job) => job.name === "sync.events");
        const states = await Promise.all(jobs.map((job) => job.getState()));
        return (
          jobs.length > 0 &&
          states.every((state) => state === "completed") &&
          (await client.hlen(`${prefix}:pim-events:${PROJECT}:pending`)) === 0
        );
      },
      { timeoutMs: WAIT_MS, what: "every targeted sync completed, no target pending" },
    );
  }

  /** What a clean full sync of the same PIM writes into a fresh service (`sync --once`, state in files). */
  async function cleanFullSync(running: RunningSimulators): Promise<CollectionsByName> {
    reference = await startSimulators();
    const config = testConfigObject({
      pimUrl: running.pim.url,
      serviceUrl: reference.service.url,
      redisPrefix: null,
      stateDir: join(dir ?? "", "clean-state"),
    });
    const path = join(dir ?? "", "clean.json");
    await writeFile(path, JSON.stringify(config));
    const once = spawnCli(["sync", "--config", path, "--project", String(PROJECT), "--once"]);
    const exit = await waitForExit(once, WAIT_MS);
    expect(exit, once.stderr().slice(-2000)).toEqual({ code: 0, signal: null });
    return collectionsOf(reference.service);
  }

  /** Every option a write to the service changed has an entry in the history (a write may be recorded twice, never not at all). */
  async function expectEveryWriteRecorded(running: RunningSimulators, client: Redis, prefix: string): Promise<void> {
    const names = new Map(running.service.collections().map((collection) => [collection.id, collection.name] as const));
    const written = new Set<string>();
    for (const [id, writes] of Object.entries(running.service.writes()))
      for (const write of writes) {
        const body = write.body as { upsert_options?: { name: string }[]; delete_options?: string[] };
        const collection = names.get(Number(id)) ?? "?";
        for (const option of body.upsert_options ?? []) written.add(`${collection}|${option.name}|upsert`);
        for (const name of body.delete_options ?? []) written.add(`${collection}|${name}|delete`);
      }
    const history = await allHistory(createRedisHistoryStore(client, prefix, { retentionMs: 86_400_000 }), PROJECT, { sinceMs: 0 });
    const recorded = new Set(
      history.map((entry) => `${entry.collection}|${entry.option}|${entry.kind === "deleted" ? "delete" : "upsert"}`),
    );
    expect([...written].filter((write) => !recorded.has(write))).toEqual([]);
    expect(written.size).toBeGreaterThan(0);
  }

  it("events duplicated, reordered and dropped at volume: what arrives is synced, the schedule repairs the rest, as a clean full sync ends", async () => {
    sims = await startSimulators();
    const running = sims;
    redis = await createConfigSafeTestRedis();
    dir = await mkdtemp(join(tmpdir(), "pim-sync-chaos-events-"));
    const queues = queuesOn("redis://127.0.0.1:6379", redis.prefix);
    const worker = await startWorkerCli(await workerConfig(running, "redis://127.0.0.1:6379", redis.prefix));
    const url = await servingUrlOf(worker);
    await firstSync(queues);
    watch = watchWrites(running.service, running.pim);

    const delivery = { url: `${url}/v1/pim-events/${PROJECT}`, secret: SECRET, duplicates: 1, reorderBatch: 5 };
    const droppedCodes: Change[] = [];
    const changes = changePim(running.pim, random, CHAOS_SIZES.eventChanges, (change) => {
      // One event in ten is lost by the platform.
      const lost = random() < 0.1;
      running.pim.events.configure({ ...delivery, drop: lost });
      announce(running.pim)(change);
      if (lost) droppedCodes.push(change);
    });
    running.pim.events.configure(delivery);
    running.pim.events.flush();
    await running.pim.events.idle();
    await eventsSettled(queues, redis.redis, redis.prefix);

    // What arrived is in the service already: a created option is there unless its event was lost.
    const now = collectionsOf(running.service);
    const inPim = new Set((running.pim.state.attribute_options["color"] ?? []).map((option) => option.code));
    const delivered = changes.filter(
      (change) => change.kind === "created" && change.attribute === "color" && inPim.has(change.code) && !droppedCodes.includes(change),
    );
    for (const change of delivered) expect(now["color"]?.map((option) => option.name)).toContain(change.code);

    // The schedule: a full sync repairs what the lost events did not say.
    await firstSync(queues);
    const clean = await cleanFullSync(running);
    expect(collectionsOf(running.service)).toEqual(clean);
    expect(watch.lost).toEqual([]);
    await expectEveryWriteRecorded(running, redis.redis, redis.prefix);
    results.add({ faultsInjected: changes.length, faultScenarios: 1, optionsLost: watch.lost.length });
  });

  it("SIGKILL of the worker in the middle of targeted syncs: the other worker finishes them, as a clean full sync ends, every write recorded", async () => {
    sims = await startSimulators();
    const running = sims;
    running.pim.setLatencyMs(30);
    redis = await createConfigSafeTestRedis();
    dir = await mkdtemp(join(tmpdir(), "pim-sync-chaos-events-kill-"));
    const queues = queuesOn("redis://127.0.0.1:6379", redis.prefix);
    const config = await workerConfig(running, "redis://127.0.0.1:6379", redis.prefix);
    const workers: CliProcess[] = await Promise.all([startWorkerCli(config), startWorkerCli(config)]);
    const url = await servingUrlOf(worker0(workers));
    await firstSync(queues);
    watch = watchWrites(running.service, running.pim);
    running.pim.events.configure({ url: `${url}/v1/pim-events/${PROJECT}`, secret: SECRET });

    const writesBefore = Object.values(running.service.writes()).flat().length;
    changePim(running.pim, random, CHAOS_SIZES.eventChanges, announce(running.pim));
    await running.pim.events.idle();
    // Killed after the targeted sync has written something, at a seeded point.
    const after = 1 + Math.floor(random() * 3);
    await waitFor(() => Object.values(running.service.writes()).flat().length >= writesBefore + after, {
      timeoutMs: WAIT_MS,
      what: `${after} writes of the targeted syncs`,
    });
    const active = (await queues.queueFor(PROJECT).getJobs(["active"], 0, -1)).find((job) => job.name === "sync.events");
    const holder = workers.find((worker) => worker.logs().some((line) => line.msg === "job started" && line.job === active?.id));
    const victim = holder ?? workers[0];
    if (victim === undefined) throw new Error("no worker to kill");
    victim.signal("SIGKILL");
    expect(await waitForExit(victim, 10_000)).toEqual({ code: null, signal: "SIGKILL" });

    await eventsSettled(queues, redis.redis, redis.prefix);
    expect(await queues.queueFor(PROJECT).getJobs(["failed"], 0, -1)).toEqual([]);
    const clean = await cleanFullSync(running);
    expect(collectionsOf(running.service)).toEqual(clean);
    expect(watch.lost).toEqual([]);
    await expectEveryWriteRecorded(running, redis.redis, redis.prefix);
    results.add({ sigkillsSurvived: 1, faultsInjected: 1, faultScenarios: 1, optionsLost: watch.lost.length });
  });

  it("Redis killed and restarted while targets are pending (append-only file): they are synced after it, as a clean full sync ends", async () => {
    sims = await startSimulators();
    const running = sims;
    dir = await mkdtemp(join(tmpdir(), "pim-sync-chaos-events-redis-"));
    // Every write on disk before Redis answers: a restart loses nothing.
    own = await startOwnRedisServer({ args: ["--appendonly", "yes", "--appendfsync", "always", "--dir", dir] });
    const prefix = "chaos-events";
    const queues = queuesOn(own.url, prefix);
    // A long merge window: the targets wait in Redis while it goes down.
    const worker = await startWorkerCli(await workerConfig(running, own.url, prefix, { window_ms: 4_000, quiet_ms: 4_000 }));
    const url = await servingUrlOf(worker);
    await firstSync(queues);
    watch = watchWrites(running.service, running.pim);
    running.pim.events.configure({ url: `${url}/v1/pim-events/${PROJECT}`, secret: SECRET });
    const probe = createBullmqConnection(own.url, "worker");
    probe.on("error", () => undefined);
    connections.push(probe);

    changePim(running.pim, random, CHAOS_SIZES.eventChanges, announce(running.pim));
    await running.pim.events.idle();
    expect(await probe.hlen(`${prefix}:pim-events:${PROJECT}:pending`)).toBeGreaterThan(0);
    await own.kill();
    await own.start();
    expect(worker.hasExited(), worker.stderr().slice(-2000)).toBe(false);

    await eventsSettled(queues, probe, prefix);
    const clean = await cleanFullSync(running);
    expect(collectionsOf(running.service)).toEqual(clean);
    expect(watch.lost).toEqual([]);
    await expectEveryWriteRecorded(running, probe, prefix);
    results.add({ redisRestartsSurvived: 1, faultsInjected: 1, faultScenarios: 1, optionsLost: watch.lost.length });
  });
});
