import { describe, expect } from "vitest";
import {
  finishedJob,
  HELD_HTTP,
  isDrained,
  jobInState,
  OTHER_PROJECT,
  overlapsInEvents,
  overlapsInRuns,
  PIM_API,
  PROJECT,
  serviceOptions,
  SIBLINGS,
  type WorkerHarness,
} from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";

describe("worker: two workers on one Redis, two projects", () => {
  let h: WorkerHarness;
  test.beforeEach(async ({ harness }) => {
    // Both projects write to one service simulator: give it room for both budgets (10 req/s each)
    // so that this test is about the workers, not the service's throttle.
    h = await harness.start({ service: { requestsPerSecond: 40 } });
  });

  function settings() {
    return h.settings({
      projects: [h.project(PROJECT), h.project(OTHER_PROJECT, { allowed_options_for_pim_attribute_addition: ["color"] })],
      http: HELD_HTTP,
    });
  }

  test("runs different projects in parallel and a project's jobs one at a time, whichever worker takes them", async () => {
    const a = await h.startWorker(settings(), "A");
    const b = await h.startWorker(settings(), "B");
    const q67 = h.queue(PROJECT);
    const q99 = h.queue(OTHER_PROJECT);

    // 1. Syncs of both projects at once: both are active at the same time (the PIM holds their
    //    reads until both are).
    const bothHeld = h.pim.holdRequests({ path: PIM_API });
    const s67 = await h.queues.enqueue("sync.run", { project: PROJECT });
    const s99 = await h.queues.enqueue("sync.run", { project: OTHER_PROJECT });
    await waitFor(
      async () => (await jobInState(q67, s67.jobId, ["active"])) !== null && (await jobInState(q99, s99.jobId, ["active"])) !== null,
      { timeoutMs: 10_000, what: "the syncs of projects 67 and 99 to be active at the same time" },
    );
    bothHeld.open();
    expect((await finishedJob(q67, s67.jobId)).state).toBe("completed");
    expect((await finishedJob(q99, s99.jobId)).state).toBe("completed");

    // 2. A mixed load on both projects, both workers taking jobs.
    h.pim.setLatencyMs(20);
    await h.queues.enqueue("sync.run", { project: PROJECT, full: true });
    await h.queues.enqueue("options.add", { project: PROJECT, attribute: "material", options: [{ name: "tw_silk" }] });
    await h.queues.enqueue("options.add", { project: PROJECT, attribute: "color", options: [{ name: "tw_teal" }] });
    await h.queues.enqueue("sync.run", { project: PROJECT });
    await h.queues.enqueue("sync.run", { project: OTHER_PROJECT, full: true });
    await h.queues.enqueue("options.add", { project: OTHER_PROJECT, attribute: "color", options: [{ name: "tw_navy" }] });
    await waitFor(async () => (await isDrained(q67)) && (await isDrained(q99)), { timeoutMs: 20_000, what: "both queues to drain" });
    expect(await h.admin.list({ state: "failed" })).toEqual([]);

    // 3. While one worker runs a job of project 67, the other (idle, running) must not start the
    //    next one; once the first worker stops, the other takes over. The PIM holds the long
    //    sync's reads until its worker is stopping, so it cannot end before.
    const longHeld = h.pim.holdRequests({ path: PIM_API });
    const long = await h.queues.enqueue("sync.run", { project: PROJECT, full: true });
    const holder = await waitFor(() => h.handlerRuns(PROJECT).find((run) => run.job === long.jobId && run.outcome === "running")?.worker, {
      timeoutMs: 10_000,
      what: "a worker to start the long sync",
    });
    await longHeld.reached(1, 10_000);
    const next = [
      await h.queues.enqueue("options.add", { project: PROJECT, attribute: "material", options: [{ name: "tw_wool" }] }),
      await h.queues.enqueue("options.add", { project: PROJECT, attribute: "color", options: [{ name: "tw_plum" }] }),
    ];
    expect(await q67.getJobCounts("active", "waiting")).toEqual({ active: 1, waiting: 2 });
    // stop() closes the worker's BullMQ Workers before its first await: opened after that, the
    // gate lets the long sync finish without its worker taking the next job.
    const stopped = (holder === "A" ? a : b).stop();
    longHeld.open();
    await stopped;
    for (const job of next) expect((await finishedJob(q67, job.jobId)).state).toBe("completed");

    const runs = h.handlerRuns(PROJECT);
    const longRun = runs.find((run) => run.job === long.jobId);
    expect(longRun).toMatchObject({ worker: holder, outcome: "done" });
    for (const job of next) {
      const run = runs.find((r) => r.job === job.jobId);
      expect(run?.worker).toBe(holder === "A" ? "B" : "A");
      expect(run?.startSeq ?? -1).toBeGreaterThan(longRun?.endSeq ?? Number.POSITIVE_INFINITY);
    }

    // Never two jobs of one project at once: by BullMQ's record and by the handlers'.
    expect(overlapsInEvents(await h.events(PROJECT))).toEqual([]);
    expect(overlapsInEvents(await h.events(OTHER_PROJECT))).toEqual([]);
    expect(overlapsInRuns(h.handlerRuns())).toEqual([]);
    // Handler runs of the two projects did overlap (they ran in parallel).
    const r67 = h.handlerRuns(PROJECT).find((run) => run.job === s67.jobId);
    const r99 = h.handlerRuns(OTHER_PROJECT).find((run) => run.job === s99.jobId);
    expect(r67 && r99 && r67.startSeq < (r99.endSeq ?? Infinity) && r99.startSeq < (r67.endSeq ?? Infinity)).toBe(true);

    // And the work itself was done once.
    for (const name of SIBLINGS.material ?? []) {
      expect(
        serviceOptions(h.service, name)
          .filter((o) => o.name === "tw_silk" || o.name === "tw_wool")
          .map((o) => o.name)
          .sort(),
      ).toEqual(["tw_silk", "tw_wool"]);
    }
    expect(serviceOptions(h.service, "color", OTHER_PROJECT).map((o) => o.name)).toContain("tw_navy");
    expect(serviceOptions(h.service, "color", OTHER_PROJECT).map((o) => o.name)).not.toContain("navy");
  });
});
