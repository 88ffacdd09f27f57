import { describe, expect } from "vitest";
import { DERIVED_67, overlapsInEvents, PROJECT, type WorkerHarness } from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";

describe("worker: scheduled syncs", () => {
  let h: WorkerHarness;
  test.beforeEach(async ({ harness }) => {
    h = await harness.start();
  });

  test("a project's schedule produces sync.run jobs with trigger 'schedule' that complete", async () => {
    await h.startWorker(h.settings({ projects: [h.project(PROJECT, { schedule: { cron: "*/1 * * * * *" } })] }));
    const queue = h.queue(PROJECT);

    const completed = await waitFor(
      async () => {
        const jobs = await queue.getJobs(["completed"], 0, -1);
        const scheduled = jobs.filter((job) => job.name === "sync.run" && (job.data as { trigger?: string }).trigger === "schedule");
        return scheduled.length >= 2 ? scheduled : null;
      },
      { timeoutMs: 20_000, what: "two completed scheduled syncs" },
    );

    for (const job of completed) {
      expect(job.data).toMatchObject({ project: PROJECT, trigger: "schedule", full: false });
      expect(job.returnvalue).toMatchObject({ outcome: "done" });
    }
    // The first run replaced every collection; the later ones found nothing to write.
    const written = completed.map((job) => (job.returnvalue as { written: number }).written).sort((a, b) => b - a);
    expect(written[0]).toBe(DERIVED_67.length);
    expect(written.slice(1).every((n) => n === 0)).toBe(true);
    expect(await queue.getJobSchedulers()).toEqual([expect.objectContaining({ key: "sync-schedule", pattern: "*/1 * * * * *" })]);
    expect(overlapsInEvents(await h.events(PROJECT))).toEqual([]);
  });
});
