import { describe, expect } from "vitest";
import {
  addOptionsRequests,
  FAST_HTTP,
  finishedJob,
  jobInState,
  pimCodes,
  PROJECT,
  serviceOptions,
  type TestWorker,
  type WorkerHarness,
} from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";

const ADD_OPTIONS_ROUTE = /\/add-options\/$/;
const UPDATE_OPTIONS_ROUTE = /\/update-options\/$/;
const LIST_ROUTE = "/api/v1/options_collections/options_collections";

describe("worker: failed jobs, replay and upstream delays", () => {
  let h: WorkerHarness;
  let worker: TestWorker;
  test.beforeEach(async ({ harness }) => {
    h = await harness.start();
    worker = await h.startWorker();
    const sync = await h.queues.enqueue("sync.run", { project: PROJECT });
    expect((await finishedJob(h.queue(), sync.jobId)).state).toBe("completed");
    h.service.clearRequests();
  });

  test("a job failed by the upstream is listed with its reason and replayed to success once the upstream recovers", async () => {
    // The service refuses the route (not the job's fault): a permanent failure, at once.
    h.service.faults.failNext({ method: "PATCH", path: ADD_OPTIONS_ROUTE }, { status: 404, times: 1000 });
    const enqueued = await h.queues.enqueue("options.add", {
      project: PROJECT,
      attribute: "color",
      options: [{ name: "teal", label: { "en-US": "Teal" } }],
    });
    const failed = await finishedJob(h.queue(), enqueued.jobId);
    expect(failed.state).toBe("failed");
    expect(failed.job.attemptsMade).toBe(1);

    const ref = `${PROJECT}/${enqueued.jobId}`;
    const listed = await h.admin.list({ state: "failed" });
    expect(listed).toEqual([expect.objectContaining({ ref, name: "options.add", state: "failed", attemptsMade: 1 })]);
    expect(listed[0]?.failedReason).toMatch(/\[service PATCH\] ".*\/add-options\/": 404/);
    expect(await h.admin.failedRefs()).toEqual([ref]);
    expect(serviceOptions(h.service, "color").map((o) => o.name)).not.toContain("teal");

    h.service.faults.clear();
    expect(await h.admin.retry([ref])).toEqual([{ ref, outcome: "retried" }]);
    const replayed = await finishedJob(h.queue(), enqueued.jobId);

    expect(replayed.state).toBe("completed");
    expect(replayed.job.returnvalue).toMatchObject({ collections: [{ collection: "color", added: ["teal"], skipped: [] }] });
    expect(serviceOptions(h.service, "color")).toContainEqual({ name: "teal", label: { "en-US": "Teal" } });
    expect(pimCodes(h.pim, "color")).toContain("teal");
    expect(await h.admin.list({ state: "failed" })).toEqual([]);
    // Only failed jobs are replayed.
    expect(await h.admin.retry([ref])).toEqual([{ ref, outcome: "skipped", reason: "it is completed, not failed" }]);
    // The failure was logged once (by its run, with the verdict), not again by the worker's event,
    // which came before the replay ran.
    const failureLines = h.logs.filter((entry) => entry.msg === "job failed" && entry.job === enqueued.jobId);
    expect(failureLines).toHaveLength(1);
    expect(failureLines[0]).toMatchObject({ verdict: "permanent" });
  });

  test("replaying a failed add-options job whose options exist by now succeeds without a write", async () => {
    h.service.faults.failNext({ method: "PATCH", path: ADD_OPTIONS_ROUTE }, { status: 404, times: 1000 });
    const first = await h.queues.enqueue("options.add", { project: PROJECT, attribute: "material", options: [{ name: "silk" }] });
    expect((await finishedJob(h.queue(), first.jobId)).state).toBe("failed");
    h.service.faults.clear();
    // The same options arrive again through another request, which succeeds.
    const second = await h.queues.enqueue("options.add", { project: PROJECT, attribute: "material", options: [{ name: "silk" }] });
    expect((await finishedJob(h.queue(), second.jobId)).state).toBe("completed");
    const writesBefore = addOptionsRequests(h.service).filter((r) => r.status === 200).length;
    expect(writesBefore).toBe(3);

    const [outcome] = await h.admin.retry([`${PROJECT}/${first.jobId}`]);
    expect(outcome?.outcome).toBe("retried");
    const replayed = await finishedJob(h.queue(), first.jobId);

    expect(replayed.state).toBe("completed");
    const collections = (replayed.job.returnvalue as { collections: { collection: string }[] }).collections;
    expect([...collections].sort((a, b) => a.collection.localeCompare(b.collection))).toEqual([
      { collection: "material-de_DE", added: [], skipped: ["silk"] },
      { collection: "material-en_US", added: [], skipped: ["silk"] },
      { collection: "material-fr_FR", added: [], skipped: ["silk"] },
    ]);
    expect(addOptionsRequests(h.service).filter((r) => r.status === 200)).toHaveLength(writesBefore);
  });

  test("an add-options job told to come back later than max_retry_after_ms is delayed without using an attempt, then completes", async () => {
    h.service.faults.failNext({ method: "PATCH", path: ADD_OPTIONS_ROUTE }, { status: 429, retryAfterSeconds: 3 });
    const enqueued = await h.queues.enqueue("options.add", { project: PROJECT, attribute: "color", options: [{ name: "teal" }] });

    const delayed = await waitFor(() => jobInState(h.queue(), enqueued.jobId, ["delayed"]), {
      timeoutMs: 10_000,
      what: "the job to be delayed",
    });
    expect(delayed.job.attemptsMade).toBe(0);
    const done = await finishedJob(h.queue(), enqueued.jobId, 15_000);

    expect(done.state).toBe("completed");
    expect(done.job.attemptsMade).toBe(1);
    expect(done.job.returnvalue).toMatchObject({ collections: [{ collection: "color", added: ["teal"], skipped: [] }] });
    expect(addOptionsRequests(h.service).map((r) => r.status)).toEqual([429, 200]);
    const { logs } = await h.queue().getJobLogs(enqueued.jobId);
    // Asked for 3 s; the job's own pause is capped like the shared one (http.max_retry_after_ms: 2 s here).
    expect(logs).toContainEqual(
      expect.stringMatching(/^delayed 2000 ms by the upstream \(it asked for 3000 ms; capped by http\.max_retry_after_ms\): .*429/),
    );
    const events = (await h.events(PROJECT)).filter((e) => e.jobId === enqueued.jobId).map((e) => e.event);
    expect(events).toEqual(expect.arrayContaining(["active", "delayed", "completed"]));
  });

  test("a sync told to come back later than max_retry_after_ms is delayed without using an attempt, then completes", async () => {
    h.service.faults.failNext({ method: "GET", path: LIST_ROUTE }, { status: 429, retryAfterSeconds: 3 });
    const enqueued = await h.queues.enqueue("sync.run", { project: PROJECT });

    const delayed = await waitFor(() => jobInState(h.queue(), enqueued.jobId, ["delayed"]), {
      timeoutMs: 10_000,
      what: "the sync to be delayed",
    });
    expect(delayed.job.attemptsMade).toBe(0);
    const done = await finishedJob(h.queue(), enqueued.jobId, 15_000);

    expect(done.state).toBe("completed");
    expect(done.job.attemptsMade).toBe(1);
    expect(h.service.requests.filter((r) => r.path === LIST_ROUTE).map((r) => r.status)).toEqual([429, 200]);
  });

  test("a sync whose write is told to come back later than max_retry_after_ms is delayed by that much, using no attempt", async () => {
    // A PIM change gives the sync one write (to `color`); the service answers it 429, Retry-After 3 s.
    h.pim.state.attribute_options.color?.push({ code: "teal", sort_order: 99, labels: { en_US: "Teal" } });
    h.service.faults.failNext({ method: "PATCH", path: UPDATE_OPTIONS_ROUTE }, { status: 429, retryAfterSeconds: 3 });
    const enqueued = await h.queues.enqueue("sync.run", { project: PROJECT });

    const delayed = await waitFor(() => jobInState(h.queue(), enqueued.jobId, ["delayed", "failed", "completed"]), {
      timeoutMs: 10_000,
      what: "the sync to leave active",
    });
    // As for the same 429 on the collection list: delayed by the upstream's 3 s, no attempt used.
    expect({ state: delayed.state, attemptsMade: delayed.job.attemptsMade }).toEqual({ state: "delayed", attemptsMade: 0 });
    expect(delayed.job.delay).toBeLessThanOrEqual(3_000);
    const done = await finishedJob(h.queue(), enqueued.jobId, 15_000);
    expect(done.state).toBe("completed");
    expect(serviceOptions(h.service, "color").map((o) => o.name)).toContain("teal");
  });

  test("an add-options job whose answer was lost (the service applied it) completes when BullMQ retries it", async () => {
    // A worker whose requests time out after 1 s; the service is made slower than that for the
    // add-options call only (it still applies the write once its latency has passed).
    await worker.stop();
    await h.startWorker(h.settings({ http: { ...FAST_HTTP, timeout_ms: 1000 } }), "short-timeout");
    const enqueued = await h.queues.enqueue("options.add", { project: PROJECT, attribute: "color", options: [{ name: "teal" }] });
    await h.service.waitForRequest((r) => r.path === LIST_ROUTE, 10_000);
    h.service.setLatencyMs(2_500);
    const retrying = await waitFor(() => jobInState(h.queue(), enqueued.jobId, ["delayed", "failed"]), {
      timeoutMs: 10_000,
      what: "the first attempt to time out",
    });
    expect(retrying).toMatchObject({ state: "delayed", job: { attemptsMade: 1 } });
    expect(retrying.job.failedReason).toMatch(/add-options\/": no answer within 1000 ms/);
    h.service.setLatencyMs(0);
    // The write did land: the option is in the collection (and in the PIM).
    await waitFor(() => serviceOptions(h.service, "color").some((o) => o.name === "teal"), {
      timeoutMs: 5_000,
      what: "teal in the service",
    });
    expect(pimCodes(h.pim, "color")).toContain("teal");

    const done = await finishedJob(h.queue(), enqueued.jobId, 20_000);
    // The retry finds the option in the PIM and upserts it (idempotent) instead of adding it again.
    expect(done.state, done.job.failedReason).toBe("completed");
  });
});
