import { describe, expect } from "vitest";
import type { JsonKeyStyle } from "../../../../src/core/json/json-key-style.js";
import { type AppWorker, serverUrlOf } from "../../../support/app-worker.js";
import { waitForJobState } from "../../../support/process-jobs.js";
import { createTriggerClient } from "../../../support/trigger-client.js";
import { test } from "../../../support/fixtures.js";
import { startTestAppWorker, type InProcessTestFixtures } from "../../../support/test-app-worker.js";
import { everyKeyOf } from "../../../support/every-key-of.js";

const PROJECT = 67;
const TRIGGER_TOKEN = "json-keys-trigger-token-0123";
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin", token: "ada-json-keys-token-0123456789" } as const;
const CAMEL_KEY = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;

describe("one JSON style: the admin API and GET /v1/jobs answer snake_case (camelCase only with worker --json-keys camel)", () => {
  let fixtures: InProcessTestFixtures;
  let worker: AppWorker | undefined;
  const client = createTriggerClient(() => serverUrlOf(worker));

  test.beforeEach(({ sims, redis, queues, workers }) => {
    fixtures = { sims, redis, queues, workers };
  });

  /** Starts a worker, runs one sync to completion and one add-options job to failure; their refs. */
  async function startWithJobs(jsonKeys?: JsonKeyStyle): Promise<{ sync: string; failed: string }> {
    const server = { host: "127.0.0.1", port: 0, admin: { users: [ADMIN] } };
    worker = await startTestAppWorker(fixtures, { trigger: { token: TRIGGER_TOKEN }, server }, jsonKeys ? { jsonKeys } : {});
    const sync = await client.call("/v1/sync", { token: TRIGGER_TOKEN, body: { project: PROJECT } });
    const syncId = (sync.json as { job_id: string }).job_id.slice(`${PROJECT}/`.length);
    await waitForJobState(fixtures.queues, PROJECT, syncId, "completed", 30_000);
    // Not in the project's allowlist: queued past the trigger's check, it fails at once.
    const failed = await fixtures.queues.enqueue("options.add", {
      project: PROJECT,
      attribute: "color",
      options: [{ name: "teal", label: { en_US: "Teal" } }],
    });
    await waitForJobState(fixtures.queues, PROJECT, failed.jobId, "failed", 30_000);
    return { sync: `${PROJECT}/${syncId}`, failed: `${PROJECT}/${failed.jobId}` };
  }

  test("answers snake_case keys everywhere, the job's result included", async () => {
    const refs = await startWithJobs();
    const list = await client.call("/admin/api/jobs", { token: ADMIN.token });
    const shownFailed = await client.call(`/admin/api/jobs/${refs.failed}`, { token: ADMIN.token });
    const shownSync = await client.call(`/admin/api/jobs/${refs.sync}`, { token: ADMIN.token });
    const polled = await client.call(`/v1/jobs/${refs.sync}`, { token: TRIGGER_TOKEN });
    for (const answer of [list, shownFailed, shownSync, polled]) {
      expect(answer.status).toBe(200);
      expect(everyKeyOf(answer.json).filter((key) => CAMEL_KEY.test(key))).toEqual([]);
    }
    expect((list.json as { jobs: unknown[] }).jobs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ref: refs.failed,
          attempts_made: 1,
          failed_reason: expect.stringMatching(/^add-options rejected/) as unknown,
        }),
      ]),
    );
    expect(shownFailed.json).toMatchObject({
      ref: refs.failed,
      attempts_made: 1,
      attempts_started: 1,
      pending_retry_reason: null,
      earlier_stacktraces: [],
    });
    expect(shownSync.json).toMatchObject({ result: { held_back: [], duration_ms: expect.any(Number) as unknown } });
    expect(polled.json).toMatchObject({
      job_id: refs.sync,
      state: "completed",
      attempts_made: 1,
      result: { outcome: "done", held_back: [], duration_ms: expect.any(Number) as unknown },
    });
  });

  test("answers the earlier camelCase shapes with --json-keys camel (removed in 0.3.0)", async () => {
    const refs = await startWithJobs("camel");
    const list = await client.call("/admin/api/jobs", { token: ADMIN.token });
    expect((list.json as { jobs: unknown[] }).jobs).toEqual(
      expect.arrayContaining([expect.objectContaining({ ref: refs.failed, attemptsMade: 1 })]),
    );
    const polled = await client.call(`/v1/jobs/${refs.sync}`, { token: TRIGGER_TOKEN });
    expect(polled.json).toMatchObject({
      job_id: refs.sync,
      attempts_made: 1,
      result: { heldBack: [], durationMs: expect.any(Number) as unknown },
    });
    // History and held plans never answered camelCase: snake_case whatever the worker's flag.
    const history = await client.call(`/admin/api/projects/${PROJECT}/history?limit=1`, { token: ADMIN.token });
    expect(history.status).toBe(200);
    expect(history.json).toMatchObject({
      entries: [expect.objectContaining({ labels_after: expect.any(Object) as unknown })],
      next_cursor: expect.any(String) as unknown,
    });
    expect(everyKeyOf(history.json).filter((key) => CAMEL_KEY.test(key))).toEqual([]);
  });
});
