import { describe, expect } from "vitest";
import { finishedJob, jobInState, jobsWithoutRetention, PROJECT, type WorkerHarness } from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";

const DAY_SECONDS = 86_400;
const ADD_OPTIONS_ROUTE = /\/add-options\/$/;

describe("worker: every job pim-sync creates has a bounded retention", () => {
  let h: WorkerHarness;
  test.beforeEach(async ({ harness }) => {
    h = await harness.start();
  });

  test("a job made by the job scheduler is removed after keep_completed_days / keep_failed_days", async () => {
    const settings = h.settings({
      projects: [h.project(PROJECT, { schedule: { cron: "*/1 * * * * *" } })],
      worker: { keep_completed_days: 3, keep_failed_days: 11 },
    });
    await h.startWorker(settings);

    const scheduled = await waitFor(
      async () => (await h.queue().getJobs(["completed"], 0, -1)).find((job) => (job.data as { trigger?: string }).trigger === "schedule"),
      { timeoutMs: 20_000, what: "a completed scheduled sync" },
    );
    expect(scheduled.opts).toMatchObject({
      removeOnComplete: { age: 3 * DAY_SECONDS, count: 1000 },
      removeOnFail: { age: 11 * DAY_SECONDS },
    });
    // The template the scheduler makes its next jobs from carries them too.
    const scheduler = await h.queue().getJobScheduler("sync-schedule");
    expect(scheduler?.template?.opts).toMatchObject({
      removeOnComplete: { age: 3 * DAY_SECONDS, count: 1000 },
      removeOnFail: { age: 11 * DAY_SECONDS },
    });
  });

  test("enqueue, follow-up, add-options with and without a key, schedule and replay: no job without retention", async () => {
    const settings = h.settings({ projects: [h.project(PROJECT, { schedule: { cron: "*/2 * * * * *" } })] });
    await h.startWorker(settings);
    const queue = h.queue();

    // A sync, and one more asked for while it runs: BullMQ creates that follow-up itself.
    h.pim.setLatencyMs(100);
    const first = await h.queues.enqueue("sync.run", { project: PROJECT, trigger: "cli" });
    await waitFor(() => jobInState(queue, first.jobId, ["active"]), { timeoutMs: 10_000, what: "the first sync to run" });
    expect((await h.queues.enqueue("sync.run", { project: PROJECT, trigger: "api", full: true })).status).toBe("follows-running");
    await waitFor(
      async () =>
        (await queue.getJobs(["completed"], 0, -1)).filter((job) => job.name === "sync.run" && job.data.trigger !== "schedule").length >= 2,
      { timeoutMs: 30_000, what: "the sync and its follow-up" },
    );
    h.pim.setLatencyMs(0);

    // add-options, plain and with an Idempotency-Key; one that fails and is replayed.
    const plain = await h.queues.enqueue("options.add", { project: PROJECT, attribute: "color", options: [{ name: "teal" }] });
    const keyed = await h.queues.enqueue(
      "options.add",
      { project: PROJECT, attribute: "color", options: [{ name: "mint" }] },
      { idempotencyKey: `${PROJECT}:k-1` },
    );
    expect((await finishedJob(queue, plain.jobId)).state).toBe("completed");
    expect((await finishedJob(queue, keyed.jobId)).state).toBe("completed");
    h.service.faults.failNext({ method: "PATCH", path: ADD_OPTIONS_ROUTE }, { status: 404, times: 1000 });
    const failing = await h.queues.enqueue("options.add", { project: PROJECT, attribute: "color", options: [{ name: "sand" }] });
    expect((await finishedJob(queue, failing.jobId)).state).toBe("failed");
    h.service.faults.clear();
    expect(await h.admin.retry([`${PROJECT}/${failing.jobId}`])).toEqual([{ ref: `${PROJECT}/${failing.jobId}`, outcome: "retried" }]);
    expect((await finishedJob(queue, failing.jobId)).state).toBe("completed");
    await waitFor(async () => (await queue.getJobs(["completed"], 0, -1)).some((job) => job.data.trigger === "schedule"), {
      timeoutMs: 20_000,
      what: "a scheduled sync",
    });

    const stored = await queue.getJobs(["completed", "failed", "delayed", "waiting", "active"], 0, -1);
    expect(stored.length).toBeGreaterThanOrEqual(6);
    expect(await jobsWithoutRetention(h.redis.redis, h.redis.prefix)).toEqual([]);
  });
});
