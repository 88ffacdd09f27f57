import { describe, expect } from "vitest";
import { keyspaceOf } from "../../../../src/infra/redis/keyspace.js";
import { allHistory } from "../../../../src/stores/history/query-history.js";
import { createRedisHistoryStore } from "../../../../src/stores/history/redis-history-store.js";
import { createRedisStateStore } from "../../../../src/stores/state/redis-state-store.js";
import { finishedJob, jobInState, PROJECT, serviceOptions } from "../../../support/worker-harness.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";

/**
 * Issue 35: every write the service accepted is in the history before the state takes it. On the
 * add-options path a history that could not store the write was only logged while the state took
 * it: the option was then in the service and the state, and nowhere in the history.
 */
describe("worker: an add-options write the change history cannot store", () => {
  test("fails the job's attempt without the state taking it; the retry writes it again and records it", async ({ harness }) => {
    const h = await harness.start();
    await h.startWorker();
    const sync = await h.queues.enqueue("sync.run", { project: PROJECT });
    expect((await finishedJob(h.queue(), sync.jobId)).state).toBe("completed");
    // The project's history stream key holds a string: every XADD fails (WRONGTYPE), a real Redis error.
    const historyKey = keyspaceOf(h.redis.redis, h.redis.prefix).projectKey(PROJECT, "history");
    await h.redis.redis.set(historyKey, "not a stream");
    const state = createRedisStateStore(h.redis.redis, h.redis.prefix);

    const enqueued = await h.queues.enqueue("options.add", { project: PROJECT, attribute: "color", options: [{ name: "teal" }] });
    const retrying = await waitFor(
      async () => {
        // Completed is an answer too: the history's failure was let through.
        const found = await jobInState(h.queue(), enqueued.jobId, ["delayed", "failed", "completed"]);
        return found !== null && (found.state === "completed" || found.job.attemptsMade >= 1) ? found : undefined;
      },
      { timeoutMs: 30_000, what: "the add-options job's first attempt to end" },
    );

    expect(retrying.state).toBe("delayed");
    expect(retrying.job.failedReason).toMatch(
      /options added to 'color'.*could not record them \(.*WRONGTYPE.*\): the state does not take them/,
    );
    // The service accepted the write; the state did not take it.
    expect(serviceOptions(h.service, "color").map((option) => option.name)).toContain("teal");
    expect([...((await state.read(PROJECT, "color")) ?? new Map()).keys()]).not.toContain("teal");

    await h.redis.redis.del(historyKey);
    await retrying.job.promote();
    expect((await finishedJob(h.queue(), enqueued.jobId)).state).toBe("completed");
    const history = await allHistory(createRedisHistoryStore(h.redis.redis, h.redis.prefix, { retentionMs: 86_400_000 }), PROJECT, {
      sinceMs: 0,
    });
    expect(history.filter((entry) => entry.option === "teal").map((entry) => entry.kind)).toEqual(["added"]);
    expect([...((await state.read(PROJECT, "color")) ?? new Map()).keys()]).toContain("teal");
  });
});
