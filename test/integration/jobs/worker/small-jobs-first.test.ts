/**
 * A small job (sync.events, options.add) takes the next free slot ahead of full syncs queued
 * before it on other projects (ranked-slots.ts, job-rank.ts), and the full syncs still all run.
 * Real Redis, the real worker with concurrency 1, handlers replaced to record the order.
 */
import { Queue } from "bullmq";
import { describe, expect } from "vitest";
import type { JobHandlers } from "../../../../src/jobs/catalog/job-handlers.js";
import { jobOptionsFor } from "../../../../src/jobs/queues/job-options.js";
import { keyspaceOf } from "../../../../src/infra/redis/keyspace.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { finishedJob, type WorkerHarness } from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test, type WorkersFixture } from "../../../support/fixtures.js";

const FIRST = 2000;
const FULL_SYNC_PROJECTS = [2001, 2002, 2003, 2004];
const EVENTS_PROJECT = 2005;
const OPTIONS_PROJECT = 2006;

describe("worker: small jobs take the next free slot", () => {
  let h: WorkerHarness;
  let workers: WorkersFixture;
  const queues: Queue[] = [];
  test.beforeEach(async ({ harness, workers: fixture }) => {
    h = await harness.start();
    workers = fixture;
  });
  test.afterEach(async () => {
    await Promise.all(queues.splice(0).map((queue) => queue.close()));
  });

  function queueOf(project: number): Queue {
    const queue = new Queue(keyspaceOf(h.redis.redis, h.redis.prefix).projectQueue(project), {
      connection: h.redis.redis,
      prefix: h.redis.prefix,
    });
    queues.push(queue);
    return queue;
  }

  test("sync.events and options.add queued behind full syncs of other projects run next, then every full sync", async () => {
    const order: string[] = [];
    let releaseFirst: () => void = () => undefined;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const handlers: JobHandlers = {
      async "sync.run"(data) {
        order.push(`sync.run ${data.project}`);
        if (data.project === FIRST) await firstHeld;
        return null;
      },
      "sync.events": (data) => {
        order.push(`sync.events ${data.project}`);
        return Promise.resolve(null);
      },
      "options.add": (data) => {
        order.push(`options.add ${data.project}`);
        return Promise.resolve(null);
      },
    };
    const projects = [FIRST, ...FULL_SYNC_PROJECTS, EVENTS_PROJECT, OPTIONS_PROJECT];
    const settings = h.settings({ projects: projects.map((id) => h.project(id)), worker: { concurrency: 1 } });
    const worker: AppWorker = workers.keep(await startAppWorker({ settings, logger: silentLogger(), handlers }));
    const full = (project: number) => ({ project, full: true, allow_mass_delete: false, trigger: "schedule" as const });

    const first = await queueOf(FIRST).add("sync.run", full(FIRST), jobOptionsFor("sync.run", settings.worker));
    await waitFor(() => order.length === 1, { timeoutMs: 15_000, what: "the first full sync to hold the only slot" });
    const fullSyncs = [];
    for (const project of FULL_SYNC_PROJECTS)
      fullSyncs.push({
        project,
        id: (await queueOf(project).add("sync.run", full(project), jobOptionsFor("sync.run", settings.worker))).id ?? "",
      });
    const events = await queueOf(EVENTS_PROJECT).add(
      "sync.events",
      { project: EVENTS_PROJECT },
      jobOptionsFor("sync.events", settings.worker),
    );
    const options = await queueOf(OPTIONS_PROJECT).add(
      "options.add",
      { project: OPTIONS_PROJECT, attribute: "color", options: [{ name: "red", label: { "en-US": "Red" } }] },
      jobOptionsFor("options.add", settings.worker),
    );
    // Every queue's next job waits for the one slot: the order is the slot's, not the wake-ups'.
    await waitFor(() => worker.waitingForSlot() === FULL_SYNC_PROJECTS.length + 2, {
      timeoutMs: 15_000,
      what: "every queue to wait for the slot",
    });
    releaseFirst();

    expect((await finishedJob(queueOf(FIRST), first.id ?? "")).state).toBe("completed");
    for (const { project, id } of fullSyncs) expect((await finishedJob(queueOf(project), id, 30_000)).state).toBe("completed");
    expect((await finishedJob(queueOf(EVENTS_PROJECT), events.id ?? "")).state).toBe("completed");
    expect((await finishedJob(queueOf(OPTIONS_PROJECT), options.id ?? "")).state).toBe("completed");
    // The two small jobs right after the sync that held the slot, in their arrival order; the
    // full syncs after them, in theirs.
    expect(order).toEqual([
      `sync.run ${FIRST}`,
      `sync.events ${EVENTS_PROJECT}`,
      `options.add ${OPTIONS_PROJECT}`,
      ...FULL_SYNC_PROJECTS.map((project) => `sync.run ${project}`),
    ]);
  });
});
