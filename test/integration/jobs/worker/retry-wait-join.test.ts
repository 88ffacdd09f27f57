import { describe, expect } from "vitest";
import { createJobAdmin } from "../../../../src/jobs/admin/job-admin.js";
import { createJobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { delayedJobRunsAt } from "../../../../src/jobs/queues/delayed-job-runs-at.js";
import { FAST_HTTP, finishedJob, jobInState, PROJECT } from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";

const LIST_ROUTE = "/api/v1/options_collections/options_collections";
const CAP_MS = FAST_HTTP.max_retry_after_ms;

/**
 * A request never joins a job whose retry is due later than `http.max_retry_after_ms`: the
 * sync's backoff after a 503 (30 s, jitter 50%) is longer than the cap of 2 s here, so a "Sync
 * now" brings that job forward instead of waiting with it (join-retry-wait.ts).
 */
describe("a request joining a sync that waits for its retry", () => {
  test("a retry due later than http.max_retry_after_ms is brought forward by a sync request, which then runs at once", async ({
    harness,
    closeAfter,
  }) => {
    const h = await harness.start();
    await h.startWorker(h.settings());
    // The producer a worker of these settings runs: its cap is the workers' http.max_retry_after_ms.
    const queues = closeAfter(
      createJobQueues({
        connection: h.redis.redis,
        prefix: h.redis.prefix,
        projects: [PROJECT],
        retention: { keep_completed_days: 1, keep_failed_days: 1 },
        retryWaitCapMs: CAP_MS,
      }),
    );
    // Every in-process attempt of the first run fails: the job is retried after its backoff.
    h.service.faults.failNext({ method: "GET", path: LIST_ROUTE }, { status: 503, times: FAST_HTTP.max_attempts });
    const first = await queues.enqueue("sync.run", { project: PROJECT });
    const waiting = await waitFor(() => jobInState(h.queue(PROJECT), first.jobId, ["delayed"]), {
      timeoutMs: 15_000,
      what: "the sync to wait for its retry",
    });
    expect(waiting.job.attemptsMade).toBe(1);
    const backoffEnds = await delayedJobRunsAt(h.queue(PROJECT), first.jobId);
    if (backoffEnds === null) throw new Error("the job left the delayed set");
    expect(backoffEnds).toBeGreaterThan(Date.now() + CAP_MS);
    // Shown as delayed, with the time it runs (jobs list and the admin API read this).
    const [listed] = await createJobAdmin(queues).list({ project: PROJECT, state: "delayed" });
    expect(listed).toMatchObject({ ref: `${PROJECT}/${first.jobId}`, state: "delayed", runsAt: new Date(backoffEnds).toISOString() });

    const again = await queues.enqueue("sync.run", { project: PROJECT });
    // Joined and brought forward: it runs now, not when the backoff ends.
    expect(again).toMatchObject({ jobId: first.jobId, status: "merged" });
    const done = await finishedJob(h.queue(PROJECT), first.jobId);
    expect(done.state, done.job.failedReason).toBe("completed");
    expect(done.job.finishedOn).toBeLessThan(backoffEnds);
  });
});
