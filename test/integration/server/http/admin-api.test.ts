import { describe, expect } from "vitest";
import { queueNameOf } from "../../../../src/infra/redis/queue-names.js";
import { type AppWorker, serverUrlOf } from "../../../support/app-worker.js";
import { waitForJobState } from "../../../support/process-jobs.js";
import { createTriggerClient, type TriggerCall } from "../../../support/trigger-client.js";
import { test } from "../../../support/fixtures.js";
import { startTestAppWorker, type InProcessTestFixtures } from "../../../support/test-app-worker.js";

const PROJECT = 67;
const TRIGGER_TOKEN = "admin-test-trigger-token-0123";
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin", token: "ada-script-token-0123456789" } as const;
const VIEWER = { name: "vic", password: "vic-password-0123", role: "viewer" } as const;

const basic = (user: { name: string; password: string }): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${user.name}:${user.password}`).toString("base64")}`,
});

describe("admin API and dashboard (/admin), and GET /v1/jobs", () => {
  let fixtures: InProcessTestFixtures;
  let worker: AppWorker | undefined;
  const client = createTriggerClient(() => serverUrlOf(worker));
  const as = (user: { name: string; password: string }, path: string, call: TriggerCall = {}) =>
    client.call(path, { ...call, headers: { ...basic(user), ...call.headers } });

  test.beforeEach(({ sims, redis, queues, workers }) => {
    fixtures = { sims, redis, queues, workers };
  });

  async function start(admin: boolean): Promise<void> {
    const server = { host: "127.0.0.1", port: 0, ...(admin ? { admin: { users: [ADMIN, VIEWER] } } : {}) };
    worker = await startTestAppWorker(fixtures, { trigger: { token: TRIGGER_TOKEN }, server });
  }

  /** An add-options job that fails at once: its attribute is not in the project's allowlist (queued past the trigger's check). */
  async function failedJob(): Promise<string> {
    if (!fixtures.queues) throw new Error("not started");
    const job = await fixtures.queues.enqueue("options.add", {
      project: PROJECT,
      attribute: "color",
      options: [{ name: "teal", label: { es_ES: "Verde azulado" } }],
    });
    await waitForJobState(fixtures.queues, PROJECT, job.jobId, "failed", 30_000);
    return job.jobId;
  }

  test("is not served at all without server.admin: 404, never open", async () => {
    await start(false);
    expect((await client.call("/admin")).status).toBe(404);
    expect((await client.call("/admin/api/jobs")).status).toBe(404);
    expect((await as(ADMIN, "/admin/api/queues")).status).toBe(404);
  });

  test("asks for credentials with 401 and WWW-Authenticate: none, a wrong password, an unknown user, a viewer's bearer-less script", async () => {
    await start(true);
    for (const answer of [
      await client.call("/admin"),
      await client.call("/admin/api/jobs"),
      await as({ name: ADMIN.name, password: "wrong-password-000" }, "/admin/api/jobs"),
      await as({ name: "nobody", password: ADMIN.password }, "/admin/api/jobs"),
      await client.call("/admin/api/jobs", { token: "not-a-user-token-0000000" }),
    ]) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toMatch(/^Basic realm="pim-sync admin"/);
    }
    expect((await client.call("/admin/api/jobs", { token: ADMIN.token })).status).toBe(200);
  });

  test("lists jobs with a one-line summary of their data and shows one; a viewer may read but not retry (403); an admin retries", async () => {
    await start(true);
    const id = await failedJob();

    const list = await as(VIEWER, `/admin/api/jobs?state=failed&project=${PROJECT}`);
    expect(list.status).toBe(200);
    expect((list.json as { jobs: unknown[] }).jobs).toEqual([
      expect.objectContaining({ ref: `${PROJECT}/${id}`, state: "failed", description: "options.add color: teal" }),
    ]);
    expect((await as(VIEWER, "/admin/api/jobs?state=nope")).status).toBe(400);
    const shown = await as(VIEWER, `/admin/api/jobs/${PROJECT}/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.json).toMatchObject({ ref: `${PROJECT}/${id}`, state: "failed" });
    expect((await as(VIEWER, `/admin/api/jobs/${PROJECT}/999999`)).status).toBe(404);

    const refused = await as(VIEWER, `/admin/api/jobs/${PROJECT}/${id}/retry`, { method: "POST" });
    expect(refused.status).toBe(403);
    expect((await as(VIEWER, `/admin/api/projects/${PROJECT}/sync`, { method: "POST" })).status).toBe(403);

    const retried = await as(ADMIN, `/admin/api/jobs/${PROJECT}/${id}/retry`, { method: "POST" });
    expect(retried.status).toBe(200);
    expect(retried.json).toEqual({ ref: `${PROJECT}/${id}`, outcome: "retried" });
  });

  test("refuses state changes by GET and from another site's page (Origin, Sec-Fetch-Site); accepts a same-origin one", async () => {
    await start(true);
    const url = worker?.serverUrl ?? "";
    expect((await as(ADMIN, `/admin/api/projects/${PROJECT}/sync`, { method: "PUT" })).status).toBe(405);
    const foreign = await as(ADMIN, `/admin/api/projects/${PROJECT}/sync`, { method: "POST", headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(foreign.text).toMatch(/cross-site/);
    expect(
      (await as(ADMIN, `/admin/api/projects/${PROJECT}/sync`, { method: "POST", headers: { "sec-fetch-site": "cross-site" } })).status,
    ).toBe(403);

    const same = await as(ADMIN, `/admin/api/projects/${PROJECT}/sync`, {
      method: "POST",
      body: { full: true },
      headers: { origin: url, "sec-fetch-site": "same-origin" },
    });
    expect(same.status).toBe(202);
    const jobId = (same.json as { job_id: string }).job_id.slice(`${PROJECT}/`.length);
    const job = await fixtures.queues?.queueFor(PROJECT).getJob(jobId);
    expect(job?.data).toMatchObject({ project: PROJECT, full: true, trigger: "admin", requested_by: ADMIN.name });
    expect((await as(ADMIN, `/admin/api/projects/${PROJECT}/sync`, { method: "POST", body: { full: "yes" } })).status).toBe(400);
    expect((await as(ADMIN, "/admin/api/projects/5/sync", { method: "POST" })).status).toBe(404);
  });

  test("bull-board: every project's queue shown; read-only for a viewer, whose board calls are refused; an admin may retry but not obliterate", async () => {
    await start(true);
    const id = await failedJob();
    const page = await as(VIEWER, "/admin");
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<html/i);

    const viewerQueues = await as(VIEWER, "/admin/api/queues");
    expect(viewerQueues.status).toBe(200);
    expect((viewerQueues.json as { queues: { name: string; readOnlyMode: boolean }[] }).queues).toEqual([
      expect.objectContaining({ name: queueNameOf(PROJECT), readOnlyMode: true }),
    ]);
    const adminQueues = await as(ADMIN, "/admin/api/queues");
    expect((adminQueues.json as { queues: { readOnlyMode: boolean }[] }).queues).toEqual([
      expect.objectContaining({ readOnlyMode: false }),
    ]);

    const retryPath = `/admin/api/queues/${encodeURIComponent(queueNameOf(PROJECT))}/${id}/retry`;
    expect((await as(VIEWER, retryPath, { method: "PUT" })).status).toBe(403);
    expect((await as(ADMIN, `/admin/api/queues/${encodeURIComponent(queueNameOf(PROJECT))}/obliterate`, { method: "PUT" })).status).toBe(
      403,
    );
    const retried = await as(ADMIN, retryPath, { method: "PUT" });
    expect(retried.status, retried.text).toBeLessThan(300);
  });

  test("GET /v1/jobs/:project/:id with the trigger token: the state, attempts and the failure reason", async () => {
    await start(false);
    const id = await failedJob();
    expect((await client.call(`/v1/jobs/${PROJECT}/${id}`)).status).toBe(401);
    const answer = await client.call(`/v1/jobs/${PROJECT}/${id}`, { token: TRIGGER_TOKEN });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ job_id: `${PROJECT}/${id}`, name: "options.add", state: "failed", attempts_made: 1, result: null });
    expect((answer.json as { failed_reason: string }).failed_reason).toMatch(/^add-options rejected: attribute 'color'/);
    expect((await client.call(`/v1/jobs/${PROJECT}/999999`, { token: TRIGGER_TOKEN })).status).toBe(404);
  });
});
