import { createHmac } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import { createRedisHeldStore } from "../../../../src/features/sync/held/redis-held-store.js";
import { pendingHeldPlan } from "../../../support/pending-held-plan.js";
import { pimEventsSchema } from "../../../../src/settings/pim-events-settings-schema.js";
import { SIM_ACTIVATION_CONNECTION_ID, SIM_ACTIVATION_TOKEN } from "../../../../sim/activation/activation-simulator.js";
import { startSimulators, type RunningSimulators } from "../../../../sim/start-simulators.js";
import { startAppWorker, type AppWorker } from "../../../support/app-worker.js";
import { openApiAnswers } from "../../../support/openapi-answers.js";
import { testConfigObject } from "../../../support/process-config.js";
import { openTestQueues, waitForJobState } from "../../../support/process-jobs.js";
import { createConfigSafeTestRedis } from "../../../support/process-redis.js";
import type { TestRedis } from "../../../support/redis.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { createTriggerClient, type TriggerAnswer, type TriggerCall } from "../../../support/trigger-client.js";

const PROJECT = 67;
const TRIGGER_TOKEN = "openapi-trigger-token-0123456789";
const METRICS_TOKEN = "openapi-metrics-token-0123456789";
const ADMIN = { name: "ada", password: "ada-password-0123", role: "admin", token: "ada-openapi-token-0123456789" } as const;
const VIEWER = { name: "vic", password: "vic-password-0123", role: "viewer", token: "vic-openapi-token-0123456789" } as const;
const CONNECTION = "amazon-fr";
const EVENTS_SECRET = "openapi-events-secret-0123456789";
const HELD_ID = "held-openapi-1";
/** A second plan, for the dismissal. */
const DISMISSED_ID = "held-openapi-2";

/** One real request, and the operation of the description it must match (`METHOD /path/{param}`). */
interface Exercise {
  readonly operation: string;
  readonly path: string;
  readonly call?: TriggerCall;
}

describe("the OpenAPI description at /openapi.json (a real worker with every surface configured)", () => {
  let sims: RunningSimulators | undefined;
  let redis: TestRedis | undefined;
  let queues: JobQueues | undefined;
  let worker: AppWorker | undefined;
  let stateDir: string | undefined;
  const client = createTriggerClient(() => {
    if (!worker?.serverUrl) throw new Error("the worker has no HTTP server");
    return worker.serverUrl;
  });
  /** A completed sync and a failed add-options job, so job answers show results and failures. */
  const jobs = { completed: "", failed: "" };

  beforeAll(async () => {
    sims = await startSimulators();
    redis = await createConfigSafeTestRedis();
    queues = openTestQueues(redis);
    stateDir = await mkdtemp(join(tmpdir(), "pim-sync-openapi-"));
    const config = testConfigObject({
      pimUrl: sims.pim.url,
      serviceUrl: sims.service.url,
      redisPrefix: redis.prefix,
      stateDir,
      trigger: { token: TRIGGER_TOKEN },
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color"] },
      server: { host: "127.0.0.1", port: 0, metrics_token: METRICS_TOKEN, admin: { users: [ADMIN, VIEWER] } },
    });
    const activation = {
      url: sims.activation.url,
      pim_connection_id: SIM_ACTIVATION_CONNECTION_ID,
      access_token: SIM_ACTIVATION_TOKEN,
      orders: { sink: { type: "file", dir: join(stateDir, "orders") } },
    };
    const parsed = parseSettings(JSON.stringify({ ...config, activation }), "openapi-test-config", {});
    const settings = {
      ...parsed,
      projects: parsed.projects.map((project) => ({
        ...project,
        pim: { ...project.pim, events: pimEventsSchema.parse({ secret: EVENTS_SECRET }) },
      })),
    };
    worker = await startAppWorker({ settings, logger: silentLogger() });

    const sync = await client.call("/v1/sync", { token: TRIGGER_TOKEN, body: { project: PROJECT } });
    const syncId = (sync.json as { job_id: string }).job_id.slice(`${PROJECT}/`.length);
    await waitForJobState(queues, PROJECT, syncId, "completed", 60_000);
    // Not in the project's allowlist: queued past the trigger's check, it fails at once.
    const failed = await queues.enqueue("options.add", { project: PROJECT, attribute: "material", options: [{ name: "wool" }] });
    await waitForJobState(queues, PROJECT, failed.jobId, "failed", 60_000);
    Object.assign(jobs, { completed: `${PROJECT}/${syncId}`, failed: `${PROJECT}/${failed.jobId}` });
    // A held plan to review and approve (a guard holding deletions back writes the same), put after
    // the sync above, of a collection no run plans: the fallback syncs the suspension notification
    // below starts leave it as it is until the approval.
    const heldStore = createRedisHeldStore(redis.redis, redis.prefix);
    for (const id of [HELD_ID, DISMISSED_ID])
      await heldStore.save(
        pendingHeldPlan({ id, project: PROJECT, collection: "retired", options: ["red", "blue"], reason: "would delete 2 of 3 options" }),
        null,
      );
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await queues?.close();
    await sims?.close();
    await redis?.cleanup();
    if (stateDir !== undefined) await rm(stateDir, { recursive: true, force: true });
  });

  async function description(): Promise<unknown> {
    const answer = await client.call("/openapi.json");
    expect(answer.status).toBe(200);
    return answer.json;
  }

  it("is a valid OpenAPI 3.1 document, public, with the security schemes of each surface and no bull-board route", async () => {
    const document = await description();
    const validator = new Validator();
    const result = await validator.validate(document as Record<string, unknown>);
    expect(result.errors ?? [], "errors of the OpenAPI 3.1 validator").toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");

    const { operations } = openApiAnswers(document);
    expect(
      operations.filter(
        (operation) =>
          operation.includes("/admin/") &&
          !operation.includes("/admin/api/jobs") &&
          !operation.includes("/admin/api/projects") &&
          !operation.includes("/admin/api/overview") &&
          !operation.includes("/admin/api/activation"),
      ),
      "bull-board routes",
    ).toEqual([]);
    const paths = (document as { paths: Record<string, Record<string, { security?: unknown; requestBody?: { required?: boolean } }>> })
      .paths;
    expect(paths["/v1/sync"]?.post?.security).toEqual([{ triggerToken: [] }]);
    expect(paths["/metrics"]?.get?.security).toEqual([{ metricsToken: [] }]);
    expect(paths["/admin/api/jobs"]?.get?.security).toEqual([{ adminBasic: [] }, { adminToken: [] }]);
    expect(paths["/healthz"]?.get?.security).toBeUndefined();
    // The admin API's sync and re-send read a missing body as `{}`; the trigger routes need theirs.
    expect(paths["/admin/api/projects/{id}/sync"]?.post?.requestBody?.required).toBe(false);
    expect(paths["/admin/api/activation/refused/{connection}/resend"]?.post?.requestBody?.required).toBe(false);
    expect(paths["/v1/sync"]?.post?.requestBody?.required).toBe(true);
  });

  it("describes every route the worker answers, and each real answer (status and body) matches its description", async () => {
    const document = await description();
    const { operations, mismatch } = openApiAnswers(document);
    const trigger = (call: TriggerCall = {}): TriggerCall => ({ token: TRIGGER_TOKEN, ...call });
    const admin = (call: TriggerCall = {}): TriggerCall => ({ token: ADMIN.token, ...call });
    const basic = `Basic ${Buffer.from(`${ADMIN.name}:${ADMIN.password}`).toString("base64")}`;
    const addOptions = { project: PROJECT, attribute: "color", options: [{ name: "teal", label: { en_US: "Teal" } }] };

    const event = JSON.stringify({
      specversion: "1.0",
      id: "openapi-event-1",
      type: "com.akeneo.pim.v1.attribute-option.created",
      source: "pim",
      data: { attribute_code: "color", code: "teal" },
    });
    const notification = JSON.stringify({
      notification_type: "subscription.suspended.system",
      timestamp: "2026-04-29T12:34:56Z",
      subscription_id: "018e1ec5-29da-78ad-aae6-92065b9ca2a6",
      reason: "Success rate dropped below 90%",
    });
    const signed = (body: string): TriggerCall => ({
      body,
      headers: { "x-akeneo-signature-primary": createHmac("sha256", EVENTS_SECRET).update(body).digest("hex") },
    });

    const exercises: readonly Exercise[] = [
      { operation: "POST /v1/pim-events/{project}", path: `/v1/pim-events/${PROJECT}`, call: signed(event) },
      { operation: "POST /v1/pim-events/{project}", path: `/v1/pim-events/${PROJECT}`, call: { body: event } },
      { operation: "POST /v1/pim-events/{project}", path: `/v1/pim-events/${PROJECT}`, call: signed("{}") },
      { operation: "POST /v1/pim-events/{project}", path: "/v1/pim-events/5", call: signed(event) },
      {
        operation: "POST /v1/pim-event-notifications/{project}",
        path: `/v1/pim-event-notifications/${PROJECT}`,
        call: signed(notification),
      },
      {
        operation: "POST /v1/pim-event-notifications/{project}",
        path: `/v1/pim-event-notifications/${PROJECT}`,
        call: { body: notification },
      },
      { operation: "POST /v1/pim-event-notifications/{project}", path: `/v1/pim-event-notifications/${PROJECT}`, call: signed("{}") },
      {
        operation: "POST /admin/api/projects/{id}/resync",
        path: `/admin/api/projects/${PROJECT}/resync`,
        call: admin({ body: { collection: "color", dry_run: true } }),
      },
      {
        operation: "POST /admin/api/projects/{id}/resync",
        path: `/admin/api/projects/${PROJECT}/resync`,
        call: admin({ body: { collection: "color", attribute: "color" } }),
      },
      {
        operation: "POST /admin/api/projects/{id}/resync",
        path: `/admin/api/projects/${PROJECT}/resync`,
        call: { token: VIEWER.token, body: {} },
      },
      { operation: "GET /admin/api/projects/{id}/history", path: `/admin/api/projects/${PROJECT}/history`, call: admin() },
      {
        operation: "GET /admin/api/projects/{id}/history",
        path: `/admin/api/projects/${PROJECT}/history?since=yesterday`,
        call: { token: VIEWER.token },
      },
      { operation: "GET /admin/api/projects/{id}/history", path: "/admin/api/projects/5/history", call: admin() },
      { operation: "GET /admin/api/projects/{id}/held", path: `/admin/api/projects/${PROJECT}/held`, call: { token: VIEWER.token } },
      { operation: "GET /admin/api/overview", path: "/admin/api/overview", call: { token: VIEWER.token } },
      { operation: "GET /admin/api/projects/{id}/history/daily", path: `/admin/api/projects/${PROJECT}/history/daily`, call: admin() },
      { operation: "GET /admin/api/projects/{id}/history/daily", path: "/admin/api/projects/5/history/daily", call: admin() },
      {
        operation: "POST /admin/api/projects/{id}/held/{heldId}/approve",
        path: `/admin/api/projects/${PROJECT}/held/${HELD_ID}/approve`,
        call: { token: VIEWER.token, method: "POST" },
      },
      {
        operation: "POST /admin/api/projects/{id}/held/{heldId}/approve",
        path: `/admin/api/projects/${PROJECT}/held/${HELD_ID}/approve`,
        call: admin({ method: "POST" }),
      },
      {
        operation: "POST /admin/api/projects/{id}/held/{heldId}/approve",
        path: `/admin/api/projects/${PROJECT}/held/no-such-plan/approve`,
        call: admin({ method: "POST" }),
      },
      {
        operation: "POST /admin/api/projects/{id}/held/{heldId}/dismiss",
        path: `/admin/api/projects/${PROJECT}/held/${DISMISSED_ID}/dismiss`,
        call: { token: VIEWER.token, method: "POST" },
      },
      {
        operation: "POST /admin/api/projects/{id}/held/{heldId}/dismiss",
        path: `/admin/api/projects/${PROJECT}/held/${DISMISSED_ID}/dismiss`,
        call: admin({ method: "POST" }),
      },
      {
        operation: "POST /admin/api/projects/{id}/held/{heldId}/dismiss",
        path: `/admin/api/projects/${PROJECT}/held/no-such-plan/dismiss`,
        call: admin({ method: "POST" }),
      },
      { operation: "GET /healthz", path: "/healthz" },
      { operation: "GET /health", path: "/health" },
      { operation: "GET /readyz", path: "/readyz" },
      { operation: "GET /openapi.json", path: "/openapi.json" },
      { operation: "GET /metrics", path: "/metrics", call: { token: METRICS_TOKEN } },
      { operation: "GET /metrics", path: "/metrics" },
      { operation: "POST /v1/sync", path: "/v1/sync", call: trigger({ body: { project: PROJECT, full: true } }) },
      { operation: "POST /v1/sync", path: "/v1/sync", call: trigger({ body: { project: 5 } }) },
      { operation: "POST /v1/sync", path: "/v1/sync", call: trigger({ body: { project: PROJECT, nope: 1 } }) },
      { operation: "POST /v1/sync", path: "/v1/sync", call: { body: { project: PROJECT } } },
      { operation: "POST /v1/sync", path: "/v1/sync", call: trigger({ body: "project=67", contentType: "text/plain" }) },
      { operation: "POST /v1/sync", path: "/v1/sync", call: trigger({ body: `{"project":67,"requested_by":"${"x".repeat(1_100_000)}"}` }) },
      {
        operation: "POST /v1/add-options",
        path: "/v1/add-options",
        call: trigger({ body: addOptions, headers: { "idempotency-key": "openapi-1" } }),
      },
      {
        operation: "POST /v1/add-options",
        path: "/v1/add-options",
        call: trigger({ body: { ...addOptions, options: [{ name: "mint" }] }, headers: { "idempotency-key": "openapi-1" } }),
      },
      {
        operation: "POST /v1/add-options",
        path: "/v1/add-options",
        call: trigger({ body: { ...addOptions, attribute: "material", options: [] } }),
      },
      { operation: "GET /v1/jobs/{project}/{id}", path: `/v1/jobs/${jobs.completed}`, call: trigger() },
      { operation: "GET /v1/jobs/{project}/{id}", path: `/v1/jobs/${jobs.failed}`, call: trigger() },
      { operation: "GET /v1/jobs/{project}/{id}", path: `/v1/jobs/${PROJECT}/no-such-job`, call: trigger() },
      { operation: "GET /v1/jobs/{project}/{id}", path: "/v1/jobs/five/1", call: trigger() },
      {
        operation: "POST /v1/activation/offers",
        path: "/v1/activation/offers",
        call: trigger({ body: { connection: CONNECTION, offers: [{ sku: "A-1", price: 10 }] } }),
      },
      {
        operation: "POST /v1/activation/offers",
        path: "/v1/activation/offers",
        call: trigger({ body: { connection: "nowhere", offers: "many" } }),
      },
      {
        operation: "POST /v1/activation/shipments",
        path: "/v1/activation/shipments",
        call: trigger({ body: { connection: CONNECTION, shipment: { orderId: `${CONNECTION}-order-1` } } }),
      },
      { operation: "POST /v1/activation/shipments", path: "/v1/activation/shipments", call: trigger({ body: { connection: CONNECTION } }) },
      { operation: "GET /admin/api/jobs", path: "/admin/api/jobs", call: admin() },
      { operation: "GET /admin/api/jobs", path: "/admin/api/jobs?state=failed", call: { headers: { authorization: basic } } },
      { operation: "GET /admin/api/jobs", path: "/admin/api/jobs?state=nope", call: admin() },
      { operation: "GET /admin/api/jobs", path: "/admin/api/jobs" },
      { operation: "GET /admin/api/jobs/{project}/{id}", path: `/admin/api/jobs/${jobs.completed}`, call: admin() },
      { operation: "GET /admin/api/jobs/{project}/{id}", path: `/admin/api/jobs/${jobs.failed}`, call: { token: VIEWER.token } },
      { operation: "GET /admin/api/jobs/{project}/{id}", path: `/admin/api/jobs/${PROJECT}/no-such-job`, call: admin() },
      {
        operation: "POST /admin/api/jobs/{project}/{id}/retry",
        path: `/admin/api/jobs/${jobs.completed}/retry`,
        call: admin({ method: "POST" }),
      },
      {
        operation: "POST /admin/api/jobs/{project}/{id}/retry",
        path: `/admin/api/jobs/${jobs.failed}/retry`,
        call: { token: VIEWER.token, method: "POST" },
      },
      {
        operation: "POST /admin/api/jobs/retry-failed",
        path: `/admin/api/jobs/retry-failed?project=${PROJECT}`,
        call: admin({ method: "POST" }),
      },
      { operation: "POST /admin/api/jobs/retry-failed", path: "/admin/api/jobs/retry-failed?project=5", call: admin({ method: "POST" }) },
      { operation: "POST /admin/api/projects/{id}/sync", path: `/admin/api/projects/${PROJECT}/sync`, call: admin({ method: "POST" }) },
      {
        operation: "POST /admin/api/projects/{id}/sync",
        path: `/admin/api/projects/${PROJECT}/sync`,
        call: admin({ body: { full: "yes" } }),
      },
      { operation: "POST /admin/api/projects/{id}/sync", path: "/admin/api/projects/5/sync", call: admin({ method: "POST" }) },
      { operation: "GET /admin/api/activation/refused", path: "/admin/api/activation/refused", call: admin() },
      { operation: "GET /admin/api/activation/refused", path: "/admin/api/activation/refused?connection=", call: admin() },
      {
        operation: "POST /admin/api/activation/refused/{connection}/resend",
        path: `/admin/api/activation/refused/${CONNECTION}/resend`,
        call: admin({ method: "POST" }),
      },
      {
        operation: "POST /admin/api/activation/refused/{connection}/resend",
        path: `/admin/api/activation/refused/${CONNECTION}/resend`,
        call: admin({ body: { order_ids: [] } }),
      },
    ];

    const answered: { operation: string; answer: TriggerAnswer; sent: unknown }[] = [];
    for (const exercise of exercises)
      answered.push({ operation: exercise.operation, answer: await client.call(exercise.path, exercise.call), sent: exercise.call?.body });

    expect(answered.map(({ operation, answer, sent }) => mismatch(operation, answer, sent)).filter((problem) => problem !== null)).toEqual(
      [],
    );
    // Every described operation was answered for real, successfully at least once.
    const succeeded = new Set(answered.filter(({ answer }) => answer.status < 300).map(({ operation }) => operation));
    expect(
      operations.filter((operation) => !succeeded.has(operation)),
      "described operations not exercised with a 2xx answer",
    ).toEqual([]);
    // The refusals exercised are the documented kinds (so a refusal answered 500 would not pass unnoticed above).
    expect([...new Set(answered.map(({ answer }) => answer.status))].sort()).toEqual([200, 202, 400, 401, 403, 404, 413, 415, 422]);
  }, 60_000);
});
