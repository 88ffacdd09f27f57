import { describe, expect } from "vitest";
import { DERIVED_67, finishedJob, PROJECT, serviceOptions, type WorkerHarness } from "../../../support/worker-harness.js";
import { test } from "../../../support/fixtures.js";

/** The service's id of `brand` in the sample catalogue. */
const BRAND_ID = 14;

/** Accepted writes that replaced a collection (delete_all), by collection name, after `since`. */
function replacesAfter(h: WorkerHarness, since: number): Record<string, number> {
  const nameById = new Map(
    h.service
      .collections()
      .filter((c) => c.project === PROJECT)
      .map((c) => [c.id, c.name] as const),
  );
  const counts: Record<string, number> = {};
  for (const [id, writes] of Object.entries(h.service.writes())) {
    const name = nameById.get(Number(id));
    if (name === undefined) continue;
    const replaces = writes.filter((write) => write.at >= since && (write.body as { delete_all?: boolean }).delete_all === true).length;
    if (replaces > 0) counts[name] = replaces;
  }
  return counts;
}

describe("worker: a retried --full sync", () => {
  let h: WorkerHarness;
  test.beforeEach(async ({ harness }) => {
    h = await harness.start();
    await h.startWorker();
    const first = await h.queues.enqueue("sync.run", { project: PROJECT });
    expect((await finishedJob(h.queue(), first.jobId)).state).toBe("completed");
  });

  test("replaces on its next run only the collections its failed run did not replace", async () => {
    const since = Date.now();
    // brand's write keeps failing (3 in-process attempts), with a Retry-After: the job's run
    // ends incomplete and the job runs again a second later, every other collection replaced.
    h.service.faults.failNext(
      { method: "PATCH", path: new RegExp(`/${BRAND_ID}/update-options/$`) },
      { status: 503, times: 3, retryAfterSeconds: 1 },
    );
    const full = await h.queues.enqueue("sync.run", { project: PROJECT, full: true });

    const { job, state } = await finishedJob(h.queue(), full.jobId, 30_000);

    expect(state).toBe("completed");
    expect(h.handlerRuns(PROJECT).filter((run) => run.job === full.jobId)).toHaveLength(2);
    // Each collection replaced once: brand by the second run, all the others by the first.
    const expected = Object.fromEntries(DERIVED_67.map((name) => [name, 1]));
    expect(replacesAfter(h, since)).toEqual(expected);
    expect(serviceOptions(h.service, "brand").length).toBeGreaterThan(0);
    expect(job.returnvalue).toMatchObject({ outcome: "done", written: 1 });
    const { logs } = await h.queue().getJobLogs(full.jobId);
    expect(logs.join("\n")).toMatch(
      new RegExp(`resuming a full sync: ${DERIVED_67.length - 1} collection\\(s\\) were replaced by an earlier attempt`),
    );
    // Nothing left behind once the job is done.
    expect((await h.redis.keys()).filter((key) => key.includes(":full-sync:"))).toEqual([]);
  });

  test("the same after a retry that used an attempt (the catalog's backoff, about 15 to 30 s)", async () => {
    const since = Date.now();
    h.service.faults.failNext({ method: "PATCH", path: new RegExp(`/${BRAND_ID}/update-options/$`) }, { status: 502, times: 3 });
    const full = await h.queues.enqueue("sync.run", { project: PROJECT, full: true });

    const { job, state } = await finishedJob(h.queue(), full.jobId, 60_000);

    expect(state).toBe("completed");
    expect(job.attemptsMade).toBe(2);
    expect(replacesAfter(h, since)).toEqual(Object.fromEntries(DERIVED_67.map((name) => [name, 1])));
  }, 90_000);

  test("a new --full sync job replaces everything again", async () => {
    h.service.faults.failNext(
      { method: "PATCH", path: new RegExp(`/${BRAND_ID}/update-options/$`) },
      { status: 503, times: 3, retryAfterSeconds: 1 },
    );
    const retried = await h.queues.enqueue("sync.run", { project: PROJECT, full: true });
    expect((await finishedJob(h.queue(), retried.jobId, 30_000)).state).toBe("completed");

    const since = Date.now();
    const next = await h.queues.enqueue("sync.run", { project: PROJECT, full: true });
    expect((await finishedJob(h.queue(), next.jobId, 30_000)).state).toBe("completed");
    expect(replacesAfter(h, since)).toEqual(Object.fromEntries(DERIVED_67.map((name) => [name, 1])));
  });
});
