import { describe, expect } from "vitest";
import { idempotencyWindowSeconds } from "../../../../src/jobs/queues/job-options.js";
import { serverUrlOf, type AppWorker } from "../../../support/app-worker.js";
import { waitForJobState } from "../../../support/process-jobs.js";
import { createTriggerClient } from "../../../support/trigger-client.js";
import { waitFor } from "../../../support/wait-for.js";
import { test } from "../../../support/fixtures.js";
import { startTestAppWorker, type InProcessTestFixtures } from "../../../support/test-app-worker.js";

const PROJECT = 67;
const TOKEN = "job-status-trigger-token-0123";

describe("GET /v1/jobs/:project/:id answers a job's outcome for the whole idempotency window, after BullMQ removed the job", () => {
  let fixtures: InProcessTestFixtures;
  let worker: AppWorker;
  const client = createTriggerClient(() => serverUrlOf(worker));

  test.beforeEach(async ({ sims, redis, queues, workers }) => {
    fixtures = { sims, redis, queues, workers };
    worker = await startTestAppWorker(fixtures, {
      trigger: { token: TOKEN },
      server: { host: "127.0.0.1", port: 0 },
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color"] },
    });
  });

  const statusKey = (id: string): string => `${fixtures.redis.prefix}:job-status:${PROJECT}:${id}`;

  /** Removes the job as BullMQ's retention does, once its end is recorded. */
  async function removedByRetention(id: string): Promise<void> {
    await waitFor(async () => (await fixtures.redis.redis.exists(statusKey(id))) === 1, {
      timeoutMs: 30_000,
      what: `the final status of ${PROJECT}/${id}`,
    });
    await fixtures.queues.queueFor(PROJECT).remove(id);
    expect(await fixtures.queues.queueFor(PROJECT).getJob(id)).toBeUndefined();
  }

  test("a completed add-options request: its state and per-collection result, kept with the idempotency window's TTL", async () => {
    const queued = await client.call("/v1/add-options", {
      token: TOKEN,
      headers: { "idempotency-key": "pim-request-1" },
      body: { project: PROJECT, attribute: "color", options: [{ name: "teal", label: { en_US: "Teal" } }] },
    });
    expect(queued.status).toBe(202);
    const ref = (queued.json as { job_id: string }).job_id;
    const id = ref.slice(`${PROJECT}/`.length);
    await waitForJobState(fixtures.queues, PROJECT, id, "completed", 30_000);
    const live = await client.call(`/v1/jobs/${ref}`, { token: TOKEN });
    expect(live.status).toBe(200);

    await removedByRetention(id);
    const answer = await client.call(`/v1/jobs/${ref}`, { token: TOKEN });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ ...(live.json as object), retrying_after: null });
    expect(answer.json).toMatchObject({
      job_id: ref,
      name: "options.add",
      state: "completed",
      attempts_made: 1,
      failed_reason: null,
      result: { collections: [{ collection: "color", added: ["teal"], skipped: [] }] },
    });

    const window = idempotencyWindowSeconds(worker.app.settings.worker);
    const ttl = await fixtures.redis.redis.ttl(statusKey(id));
    expect(ttl).toBeGreaterThan(window - 600);
    expect(ttl).toBeLessThanOrEqual(window);
    // A redelivery within the window is still the same request, and its outcome still answers.
    const again = await client.call("/v1/add-options", {
      token: TOKEN,
      headers: { "idempotency-key": "pim-request-1" },
      body: { project: PROJECT, attribute: "color", options: [{ name: "teal", label: { en_US: "Teal" } }] },
    });
    expect(again.json).toEqual({ job_id: ref, status: "duplicate" });
  });

  test("a job that failed for good: its state and failure reason; an id never seen is still 404", async () => {
    // Not in the project's allowlist: queued past the trigger's check, the job fails at once.
    const failed = await fixtures.queues.enqueue("options.add", {
      project: PROJECT,
      attribute: "size",
      options: [{ name: "xl", label: { en_US: "XL" } }],
    });
    await waitForJobState(fixtures.queues, PROJECT, failed.jobId, "failed", 30_000);
    await removedByRetention(failed.jobId);

    const answer = await client.call(`/v1/jobs/${PROJECT}/${failed.jobId}`, { token: TOKEN });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ job_id: `${PROJECT}/${failed.jobId}`, state: "failed", result: null, retrying_after: null });
    expect((answer.json as { failed_reason: string }).failed_reason).toMatch(/^add-options rejected/);
    expect((await client.call(`/v1/jobs/${PROJECT}/999999`, { token: TOKEN })).status).toBe(404);
  });
});
