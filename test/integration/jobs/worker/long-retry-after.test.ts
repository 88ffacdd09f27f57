import { describe, expect } from "vitest";
import { serviceBudgetOf } from "../../../../src/infra/budgets/budget-identity.js";
import { keyspaceOf } from "../../../../src/infra/redis/keyspace.js";
import { FAST_HTTP, finishedJob, jobInState, OTHER_PROJECT, PROJECT, type WorkerHarness } from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";

const LIST_ROUTE = "/api/v1/options_collections/options_collections";

/**
 * Projects 67 and 99 use one service account, so they share its budget (and its pause) through
 * Redis. The case: one 429 with `Retry-After: 900` must not leave the other project's
 * job active for 15 minutes, holding a worker slot and its project lock with nothing sent.
 */
describe("worker: a long Retry-After on a shared budget", () => {
  let h: WorkerHarness;
  let pauseKey: string;
  test.beforeEach(async ({ harness }) => {
    h = await harness.start({ service: { requestsPerSecond: 40 } });
    const settings = h.settings({
      projects: [h.project(PROJECT), h.project(OTHER_PROJECT, { allowed_options_for_pim_attribute_addition: ["color"] })],
    });
    const service = settings.projects[0]?.service;
    if (!service) throw new Error("no project in the test's settings");
    pauseKey = keyspaceOf(h.redis.redis, h.redis.prefix).budgetKey(serviceBudgetOf(service), "pause");
    await h.startWorker(settings);
  });

  test("one project's 429 with Retry-After: 900 delays that project's job by at most http.max_retry_after_ms; the other project's sync still completes", async () => {
    h.service.faults.failNext(
      { method: "GET", path: LIST_ROUTE, query: { project: String(PROJECT) } },
      { status: 429, retryAfterSeconds: 900 },
    );
    const first = await h.queues.enqueue("sync.run", { project: PROJECT });
    const delayed = await waitFor(() => jobInState(h.queue(PROJECT), first.jobId, ["delayed"]), {
      timeoutMs: 10_000,
      what: "project 67's sync to be delayed",
    });
    expect(delayed.job.attemptsMade).toBe(0);
    // The job's own delay is capped like the shared pause (issue 35): not the upstream's 900 s.
    expect(delayed.job.delay).toBeLessThanOrEqual(FAST_HTTP.max_retry_after_ms);
    // The shared pause is at most http.max_retry_after_ms (2 s here), not 900 s.
    expect(await h.redis.redis.pttl(pauseKey)).toBeLessThanOrEqual(FAST_HTTP.max_retry_after_ms);

    const other = await h.queues.enqueue("sync.run", { project: OTHER_PROJECT });
    const done = await finishedJob(h.queue(OTHER_PROJECT), other.jobId);
    expect(done.state, done.job.failedReason).toBe("completed");
    expect(h.service.requests.filter((r) => r.path === LIST_ROUTE && r.status === 200).length).toBeGreaterThan(0);
    // Project 67's job waited in the queue, not in a worker, and ran again once the cap was over.
    const retried = await finishedJob(h.queue(PROJECT), first.jobId);
    expect(retried.state, retried.job.failedReason).toBe("completed");
  });

  test("a pause longer than http.max_retry_after_ms already on the shared budget (an older version's) delays the job instead of holding it active", async () => {
    await h.redis.redis.set(pauseKey, "1", "PX", 900_000);
    const enqueued = await h.queues.enqueue("sync.run", { project: OTHER_PROJECT });

    const delayed = await waitFor(() => jobInState(h.queue(OTHER_PROJECT), enqueued.jobId, ["delayed", "completed", "failed"]), {
      timeoutMs: 10_000,
      what: "the sync to leave active",
    });
    expect({ state: delayed.state, attemptsMade: delayed.job.attemptsMade }).toEqual({ state: "delayed", attemptsMade: 0 });
    // Delayed by at most the cap, not the pause's 900 s: it asks again then.
    expect(delayed.job.delay).toBeLessThanOrEqual(FAST_HTTP.max_retry_after_ms);
    const { logs } = await h.queue(OTHER_PROJECT).getJobLogs(enqueued.jobId);
    expect(logs).toContainEqual(
      expect.stringMatching(
        /^delayed \d+ ms by the upstream \(it asked for \d+ ms; capped by http.max_retry_after_ms\): .*not sent: the upstream budget is paused/,
      ),
    );
    // Nothing went to the service while its budget was paused.
    expect(h.service.requests.filter((r) => r.path === LIST_ROUTE)).toEqual([]);

    // Once the pause is over, the delayed job's next run goes through.
    await h.redis.redis.del(pauseKey);
    const done = await finishedJob(h.queue(OTHER_PROJECT), enqueued.jobId);
    expect(done.state, done.job.failedReason).toBe("completed");
  });
});
