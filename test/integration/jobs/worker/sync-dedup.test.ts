import type { Job } from "bullmq";
import type { EnqueuedJob } from "../../../../src/jobs/queues/job-queues.js";
import { describe, expect } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import {
  DERIVED_67,
  finishedJob,
  HELD_HTTP,
  isDrained,
  jobInState,
  overlapsInEvents,
  PIM_API,
  PROJECT,
  type WorkerHarness,
} from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";

const LIST_ROUTE = "/api/v1/options_collections/options_collections";

describe("worker: duplicate sync triggers collapse", () => {
  let h: WorkerHarness;
  test.beforeEach(async ({ harness }) => {
    h = await harness.start();
  });

  test("5 triggers while a sync runs: at most one active and one waiting, two syncs in all", async () => {
    await h.startWorker(h.settings({ http: HELD_HTTP }));
    const queue = h.queue(PROJECT);
    // The PIM holds the first sync's reads: it is still running when the triggers arrive.
    const gate = h.pim.holdRequests({ path: PIM_API });
    const first = await h.queues.enqueue("sync.run", { project: PROJECT, trigger: "cli", requested_by: "first" });
    expect(first.status).toBe("queued");
    await waitFor(() => jobInState(queue, first.jobId, ["active"]), { timeoutMs: 10_000, what: "the first sync to be active" });
    await gate.reached(1, 10_000);

    const samples: { active: number; waiting: number }[] = [];
    const sample = async (): Promise<void> => {
      const counts = await queue.getJobCounts("active", "waiting", "prioritized", "delayed");
      samples.push({ active: counts.active ?? 0, waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0) });
    };
    const again: EnqueuedJob[] = [];
    for (let i = 1; i <= 5; i += 1) {
      again.push(await h.queues.enqueue("sync.run", { project: PROJECT, trigger: "api", requested_by: `trigger-${i}` }));
      await sample();
    }
    // While the first one runs, every trigger becomes the one follow-up BullMQ starts after it.
    expect(again.map((job) => job.status)).toEqual([
      "follows-running",
      "follows-running",
      "follows-running",
      "follows-running",
      "follows-running",
    ]);
    expect(again.map((job) => job.jobId)).toEqual(Array(5).fill(first.jobId));

    gate.open();
    await waitFor(
      async () => {
        await sample();
        const completed = (await queue.getJobs(["completed"], 0, -1)).filter((job) => job.name === "sync.run");
        return completed.length >= 2 && (await isDrained(queue));
      },
      { timeoutMs: 20_000, what: "the running sync and its one follow-up to complete" },
    );

    for (const s of samples) {
      expect(s.active).toBeLessThanOrEqual(1);
      expect(s.waiting).toBeLessThanOrEqual(1);
    }
    const syncs: Job[] = (await queue.getJobs(["completed", "failed", "active", "waiting", "delayed"], 0, -1)).filter(
      (job) => job.name === "sync.run",
    );
    expect(syncs).toHaveLength(2);
    const followUp = syncs.find((job) => job.id !== first.jobId);
    // The follow-up carries the latest request's data.
    expect(followUp?.data).toMatchObject({ project: PROJECT, trigger: "api", requested_by: "trigger-5" });
    // Two syncs reached the service: one collection list each.
    expect(h.service.requests.filter((r) => r.method === "GET" && r.path === LIST_ROUTE)).toHaveLength(2);
    expect(overlapsInEvents(await h.events(PROJECT))).toEqual([]);
    expect(h.handlerRuns(PROJECT).map((run) => run.outcome)).toEqual(["done", "done"]);
  });

  test("the follow-up of a running sync keeps --full of an earlier request when a later plain one replaces it", async () => {
    await h.startWorker(h.settings({ http: HELD_HTTP }));
    const queue = h.queue(PROJECT);
    const gate = h.pim.holdRequests({ path: PIM_API });
    const first = await h.queues.enqueue("sync.run", { project: PROJECT, requested_by: "first" });
    await waitFor(() => jobInState(queue, first.jobId, ["active"]), { timeoutMs: 10_000, what: "the first sync to be active" });
    await gate.reached(1, 10_000);
    const full = await h.queues.enqueue("sync.run", { project: PROJECT, full: true, allow_mass_delete: true, requested_by: "full" });
    const plain = await h.queues.enqueue("sync.run", { project: PROJECT, requested_by: "plain" });
    expect([full.status, plain.status]).toEqual(["follows-running", "follows-running"]);
    gate.open();

    const followUp = await waitFor(
      async () => (await queue.getJobs(["waiting", "active", "completed"], 0, -1)).find((job) => job.id !== first.jobId),
      { timeoutMs: 20_000, what: "the follow-up" },
    );
    // BullMQ keeps the latest request's data; the options of the earlier one are not lost.
    expect(followUp.data).toEqual({ project: PROJECT, full: true, allow_mass_delete: true, trigger: "cli", requested_by: "plain" });
    await waitFor(() => isDrained(queue), { timeoutMs: 20_000, what: "both syncs to finish" });
  });

  test("5 triggers while nothing runs: one sync", async () => {
    const results: EnqueuedJob[] = [];
    // No worker yet: every trigger finds the first one waiting.
    for (let i = 1; i <= 5; i += 1) results.push(await h.queues.enqueue("sync.run", { project: PROJECT, requested_by: `trigger-${i}` }));
    expect(new Set(results.map((r) => r.jobId)).size).toBe(1);
    expect(results.map((r) => r.status)).toEqual(["queued", "merged", "merged", "merged", "merged"]);
    expect(await h.queue(PROJECT).getJobCounts("waiting")).toEqual({ waiting: 1 });

    await h.startWorker();
    await waitFor(() => jobInState(h.queue(PROJECT), results[0]?.jobId ?? "", ["completed"]), {
      timeoutMs: 15_000,
      what: "the sync to complete",
    });
    await waitFor(() => isDrained(h.queue(PROJECT)), { timeoutMs: 5_000, what: "an empty queue" });
    expect((await h.queue(PROJECT).getJobs(["completed", "failed"], 0, -1)).map((job) => job.name)).toEqual(["sync.run"]);
    expect(h.service.requests.filter((r) => r.method === "GET" && r.path === LIST_ROUTE)).toHaveLength(1);
  });
});

describe("worker: a --full request racing the worker that takes the waiting sync", () => {
  const ROUNDS = 25;
  let h: WorkerHarness;
  test.beforeEach(async ({ harness }) => {
    // A service budget that lets a full sync (13 writes) take a fraction of a second.
    h = await harness.start({ service: { requestsPerSecond: 100 } });
  });

  test(`is never lost: in each of ${ROUNDS} rounds a sync that ran after it replaced every collection`, async () => {
    const project = h.project(PROJECT);
    await h.startWorker(h.settings({ projects: [{ ...project, service: { ...(project.service as object), requests_per_second: 100 } }] }));
    const queue = h.queue(PROJECT);
    // A first sync gives every collection a state: from then on a plain sync writes nothing.
    const first = await h.queues.enqueue("sync.run", { project: PROJECT });
    expect((await finishedJob(queue, first.jobId)).state).toBe("completed");

    const seen = new Set<string>([first.jobId]);
    const lost: string[] = [];
    const statuses = new Set<string>();
    for (let round = 1; round <= ROUNDS; round += 1) {
      // A plain sync, then a --full one a moment later, while the worker takes the plain one:
      // the --full request lands before, during or after the worker's move of that job.
      const plain = h.queues.enqueue("sync.run", { project: PROJECT, requested_by: `plain-${round}` });
      await sleep(round % 4);
      const full = await h.queues.enqueue("sync.run", { project: PROJECT, full: true, requested_by: `full-${round}` });
      await plain;
      statuses.add(full.status);
      await waitFor(() => isDrained(queue), { timeoutMs: 20_000, what: `round ${round} to finish` });
      const ran = (await queue.getJobs(["completed", "failed"], 0, -1)).filter((job) => job.id !== undefined && !seen.has(job.id));
      for (const job of ran) seen.add(job.id ?? "");
      const replacedAll = ran.some((job) => (job.returnvalue as { written?: number } | null)?.written === DERIVED_67.length);
      if (!replacedAll)
        lost.push(
          `round ${round}: answered ${full.status} (job ${full.jobId}), runs wrote ${ran.map((job) => (job.returnvalue as { written?: number } | null)?.written).join(", ")}`,
        );
    }

    expect(lost).toEqual([]);
    // The rounds did land on both sides of the worker's move.
    expect(statuses.has("merged") || statuses.has("follows-running")).toBe(true);
    expect(overlapsInEvents(await h.events(PROJECT))).toEqual([]);
  });
});
