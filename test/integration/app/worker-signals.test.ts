import { beforeAll, describe, expect } from "vitest";
import type { RequestGate } from "../../../sim/shared/request-gates.js";
import { waitForExit, type CliProcess } from "../../support/process-cli.js";
import { cleanSyncEndState, collectionsOf, waitForJobState, type CollectionsByName } from "../../support/process-jobs.js";
import { test } from "../../support/fixtures.js";
import { HELD_HTTP } from "../../support/worker-harness.js";
import { writeWorkerConfig, type ProcessTestFixtures } from "../../support/worker-process.js";

const PROJECT = 67;
/** Collections of project 67 the sample catalogue derives and the service holds. */
const SYNCED_COLLECTIONS = 13;
const isUpdateOptions = (request: { method: string; path: string; status: number }): boolean =>
  request.method === "PATCH" && /\/update-options\/$/.test(request.path) && request.status === 200;

describe("pim-sync worker as a process: signals", () => {
  let reference: { collections: CollectionsByName; otherProject: CollectionsByName };
  let fixtures: ProcessTestFixtures;
  let configPath: string;

  beforeAll(async () => {
    reference = await cleanSyncEndState();
    // The synced collections plus manual_list, which no attribute derives.
    expect(Object.keys(reference.collections)).toHaveLength(SYNCED_COLLECTIONS + 1);
  });

  test.beforeEach(async ({ sims, redis, queues, tempDir, cli }) => {
    fixtures = { cli, sims, redis, queues, tempDir };
    configPath = await writeWorkerConfig(fixtures, { http: HELD_HTTP });
  });

  /**
   * Holds the sync's update-options writes from the one after the first `written`: the sync is
   * then certainly in its middle when a signal is sent, however fast or slow the machine (a
   * slow upstream only made that likely). Open the gate to let it go on.
   */
  const holdWrites = (written: number): RequestGate =>
    fixtures.sims.service.holdRequests({ method: "PATCH", path: /\/update-options\/$/ }, { after: written });

  const spawnWorker = (): Promise<CliProcess> => fixtures.cli.startWorker(configPath);

  test("SIGTERM during a sync lets it finish: exit 0, the job completed, every collection synced", async () => {
    const gate = holdWrites(1);
    const worker = await spawnWorker();
    const { jobId } = await fixtures.queues.enqueue("sync.run", { project: PROJECT, trigger: "cli" });

    // The sync is under way: the job is active, the PIM was read, the first collection written,
    // the second write held.
    await worker.waitForLog((line) => line.msg === "job started" && line.job === jobId, 10_000, "'job started'");
    await gate.reached(1, 30_000);
    const job = await fixtures.queues.queueFor(PROJECT).getJob(jobId);
    expect(await job?.getState()).toBe("active");
    expect(fixtures.sims.pim.requests.some((r) => r.path.startsWith("/api/rest/v1/"))).toBe(true);
    expect(fixtures.sims.service.requests.filter(isUpdateOptions)).toHaveLength(1);

    worker.signal("SIGTERM");
    await worker.waitForLog((line) => line.msg === "stopping: waiting for active jobs", 15_000, "'stopping: waiting for active jobs'");
    gate.open();
    const exit = await waitForExit(worker, 30_000);

    expect(exit).toEqual({ code: 0, signal: null });
    expect(worker.logs().some((line) => line.msg === "worker stopped" && line.forced === false)).toBe(true);
    expect(worker.stderr()).not.toContain("left to be recovered");
    const finished = await fixtures.queues.queueFor(PROJECT).getJob(jobId);
    expect(await finished?.getState()).toBe("completed");
    expect(finished?.failedReason ?? "").toBe("");
    expect(finished?.returnvalue).toMatchObject({ outcome: "done", written: SYNCED_COLLECTIONS });
    expect(worker.logs().some((line) => typeof line.msg === "string" && /stalled/.test(line.msg))).toBe(false);
    // The writes that happened after the signal are the rest of the sync.
    expect(fixtures.sims.service.requests.filter(isUpdateOptions).length).toBe(SYNCED_COLLECTIONS);
    expect(collectionsOf(fixtures.sims.service)).toEqual(reference.collections);
    expect(collectionsOf(fixtures.sims.service, 99)).toEqual(reference.otherProject);
  });

  test("SIGINT with no job running: the worker stops at once and exits 0", async () => {
    const worker = await spawnWorker();

    worker.signal("SIGINT");
    const exit = await waitForExit(worker, 15_000);

    expect(exit).toEqual({ code: 0, signal: null });
    expect(worker.logs().some((line) => line.msg === "worker stopped" && line.forced === false)).toBe(true);
  });

  test("SIGTERM with a sync longer than shutdown_timeout_ms: the job is handed back at the deadline and another worker finishes it", async () => {
    const shortDeadline = await writeWorkerConfig(
      fixtures,
      { http: HELD_HTTP, worker: { shutdown_timeout_ms: 500 } },
      "short-deadline.json",
    );
    // The second write is held until A has exited: the deadline certainly passes mid-sync.
    const gate = holdWrites(1);
    const workerA = fixtures.cli.spawn(["worker", "--config", shortDeadline]);
    await workerA.waitForLog((line) => line.msg === "worker started", 15_000, "'worker started'");
    const { jobId } = await fixtures.queues.enqueue("sync.run", { project: PROJECT, trigger: "cli" });
    await gate.reached(1, 30_000);
    expect(fixtures.sims.service.requests.filter(isUpdateOptions)).toHaveLength(1);

    workerA.signal("SIGTERM");
    const exit = await waitForExit(workerA, 30_000);
    // The held write is answered to nobody (A aborted it), as a server may answer a client that left.
    gate.open();

    expect(exit).toEqual({ code: 0, signal: null });
    // The deadline passed with the sync still running (its second write held)...
    expect(workerA.logs().some((line) => line.msg === "active jobs did not finish in time; handing them back")).toBe(true);
    expect(workerA.logs().some((line) => line.msg === "worker stopped" && line.forced === true)).toBe(true);
    // ...so A aborted the sync and handed the job back instead of finishing it.
    const completedByA = workerA.logs().some((line) => line.job === jobId && line.msg === "job completed");
    expect(completedByA, "worker A completed the job after its shutdown deadline").toBe(false);
    // Handed back at once (not left to stall until its lock runs out).
    expect(
      workerA.logs().some((line) => line.job === jobId && line.msg === "job interrupted by shutdown; handing it back to the queue"),
    ).toBe(true);

    const workerB = await spawnWorker();
    const done = await waitForJobState(fixtures.queues, PROJECT, jobId, "completed", 35_000);
    expect(done.failedReason ?? "").toBe("");
    expect(collectionsOf(fixtures.sims.service)).toEqual(reference.collections);
    workerB.signal("SIGTERM");
    expect(await waitForExit(workerB, 25_000)).toEqual({ code: 0, signal: null });
  });

  test("SIGKILL during a sync: a second worker recovers the stalled job and ends where a clean sync ends", async () => {
    const gate = holdWrites(2);
    const workerA = await spawnWorker();
    // Enqueued through the built CLI, as an operator would.
    const enqueue = fixtures.cli.spawn(["enqueue", "sync", "--config", configPath, "--project", String(PROJECT), "--json"]);
    expect(await waitForExit(enqueue, 15_000)).toEqual({ code: 0, signal: null });
    const enqueued = JSON.parse(enqueue.stdout()) as { job_id: string; status: string };
    expect(enqueued.status).toBe("queued");
    const jobId = enqueued.job_id.slice(`${PROJECT}/`.length);

    // Some collections are written, not all: the third write is held until A is dead.
    await gate.reached(1, 30_000);
    workerA.signal("SIGKILL");
    expect(await waitForExit(workerA, 10_000)).toEqual({ code: null, signal: "SIGKILL" });
    expect(fixtures.sims.service.requests.filter(isUpdateOptions)).toHaveLength(2);
    gate.open();
    // A died holding the job: it is still active (its lock not yet expired or not yet noticed).
    expect(await (await fixtures.queues.queueFor(PROJECT).getJob(jobId))?.getState()).toBe("active");

    const workerB = await spawnWorker();
    const done = await waitForJobState(fixtures.queues, PROJECT, jobId, "completed", 35_000);

    expect(done.failedReason ?? "").toBe("");
    expect(done.returnvalue).toMatchObject({ outcome: "done" });
    // Started by A, stalled, started again by B; a stall is not a failed attempt.
    expect(done.stalledCounter).toBeGreaterThanOrEqual(1);
    expect(done.attemptsStarted).toBeGreaterThanOrEqual(2);
    // Recovered through BullMQ's stalled check, by B.
    await workerB.waitForLog((line) => line.job === jobId && line.msg === "job completed", 5_000, "'job completed' from worker B");
    expect(workerB.logs().some((line) => line.job === jobId && typeof line.msg === "string" && line.msg.startsWith("job stalled"))).toBe(
      true,
    );
    expect(workerB.logs().some((line) => line.job === jobId && line.msg === "job started")).toBe(true);
    expect(await fixtures.queues.queueFor(PROJECT).getJobs(["failed"], 0, -1)).toEqual([]);
    expect(collectionsOf(fixtures.sims.service)).toEqual(reference.collections);
    expect(collectionsOf(fixtures.sims.service, 99)).toEqual(reference.otherProject);

    // B ends cleanly too.
    workerB.signal("SIGTERM");
    expect(await waitForExit(workerB, 25_000)).toEqual({ code: 0, signal: null });
  });
});
