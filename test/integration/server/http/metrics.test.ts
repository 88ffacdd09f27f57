import { describe, expect } from "vitest";
import { serverUrlOf, type AppWorker } from "../../../support/app-worker.js";
import { waitForJobState } from "../../../support/process-jobs.js";
import { promtoolCheckMetrics } from "../../../support/promtool-check.js";
import { createTriggerClient, type TriggerAnswer } from "../../../support/trigger-client.js";
import { createWorkerMetrics } from "../../../../src/server/metrics/worker-metrics.js";
import { test } from "../../../support/fixtures.js";
import { startTestAppWorker, type InProcessTestFixtures } from "../../../support/test-app-worker.js";

const PROJECT = 67;
const TRIGGER_TOKEN = "metrics-test-trigger-token-0123";
const METRICS_TOKEN = "metrics-test-scrape-token-0123";

/** The value of one sample line (`name{labels} value`) of a scrape, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /metrics (prom-client, over real HTTP)", () => {
  let fixtures: InProcessTestFixtures;
  let worker: AppWorker | undefined;
  const client = createTriggerClient(() => serverUrlOf(worker));

  test.beforeEach(async ({ sims, redis, queues, workers }) => {
    fixtures = { sims, redis, queues, workers };
    worker = await startTestAppWorker(fixtures, {
      trigger: { token: TRIGGER_TOKEN },
      server: { host: "127.0.0.1", port: 0, metrics_token: METRICS_TOKEN },
      // At 03:00: no scheduled run comes during the test, but the schedule's period is reported.
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color"], schedule: { cron: "0 3 * * *", timezone: "UTC" } },
    });
  });

  /** Waits until the job a trigger answer queued has completed. */
  async function completed(answer: TriggerAnswer): Promise<void> {
    const ref = (answer.json as { job_id: string }).job_id;
    await waitForJobState(fixtures.queues, PROJECT, ref.slice(`${PROJECT}/`.length), "completed", 30_000);
  }

  async function scrape(): Promise<string> {
    const answer = await client.call("/metrics", { token: METRICS_TOKEN });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return answer.text;
  }

  test("asks for the bearer token when one is configured", async () => {
    const none = await client.call("/metrics");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe("Bearer");
    expect((await client.call("/metrics", { token: "not-the-metrics-token-000" })).status).toBe(401);
  });

  test("counts a sync, its writes, the upstream requests and a 429, an add-options job, and the queue's jobs at scrape time", async () => {
    const before = await scrape();
    expect(before).toMatch(/^process_cpu_user_seconds_total /m);
    expect(sample(before, `pim_sync_last_success_timestamp_seconds{project="${PROJECT}"}`)).toBeUndefined();
    // At 0 from the start, so that an alert's `increase` sees the first failure and the first 429.
    expect(sample(before, `pim_sync_sync_runs_total{project="${PROJECT}",outcome="failed"}`)).toBe(0);
    expect(sample(before, `pim_sync_upstream_throttled_total{upstream="pim"}`)).toBe(0);

    fixtures.sims.pim.faults.failNext({ method: "GET" }, { status: 429, times: 1, retryAfterSeconds: 0 });
    const sync = await client.call("/v1/sync", { token: TRIGGER_TOKEN, body: { project: PROJECT } });
    expect(sync.status).toBe(202);
    await completed(sync);

    const add = await client.call("/v1/add-options", {
      token: TRIGGER_TOKEN,
      body: { project: PROJECT, attribute: "color", options: [{ name: "teal", label: { en_US: "Teal" } }] },
    });
    expect(add.status).toBe(202);
    await completed(add);

    const after = await scrape();
    expect(sample(after, `pim_sync_sync_runs_total{project="${PROJECT}",outcome="ok"}`)).toBe(1);
    expect(sample(after, `pim_sync_sync_duration_seconds_count{project="${PROJECT}",outcome="ok"}`)).toBe(1);
    expect(sample(after, `pim_sync_options_written_total{project="${PROJECT}",kind="upsert"}`)).toBeGreaterThan(0);
    expect(sample(after, `pim_sync_last_success_timestamp_seconds{project="${PROJECT}"}`)).toBeGreaterThan(Date.now() / 1000 - 120);
    // One option asked for, one collection holding the attribute's options: one option added.
    expect(sample(after, `pim_sync_add_options_options_total{project="${PROJECT}",outcome="added"}`)).toBe(1);
    expect(after).not.toMatch(/^pim_sync_add_options_total/m);
    expect(sample(after, `pim_sync_upstream_requests_total{upstream="pim",status="200"}`)).toBeGreaterThan(0);
    expect(sample(after, `pim_sync_upstream_requests_total{upstream="service",status="200"}`)).toBeGreaterThan(0);
    expect(sample(after, `pim_sync_upstream_requests_total{upstream="pim",status="429"}`)).toBe(1);
    expect(sample(after, `pim_sync_upstream_throttled_total{upstream="pim"}`)).toBe(1);
    expect(sample(after, `pim_sync_jobs{project="${PROJECT}",queue_state="completed"}`)).toBe(2);
    expect(sample(after, `pim_sync_jobs{project="${PROJECT}",queue_state="failed"}`)).toBe(0);
  });

  test("reports the worker ready and the longest gap of the project's schedule", async () => {
    const text = await scrape();
    expect(sample(text, "pim_sync_ready")).toBe(1);
    expect(sample(text, `pim_sync_schedule_period_seconds{project="${PROJECT}"}`)).toBe(86_400);
  });

  test("counts HTTP requests by route pattern (never the path) and status, and refused authentications", async () => {
    await client.call(`/v1/jobs/${PROJECT}/999999`, { token: TRIGGER_TOKEN });
    await client.call(`/v1/jobs/${PROJECT}/999998`, { token: TRIGGER_TOKEN });
    await client.call("/v1/sync", { token: "not-the-trigger-token-0000", body: { project: PROJECT } });
    await client.call("/no/such/path/not-a-route-4711");
    const text = await scrape();
    expect(sample(text, 'pim_sync_http_requests_total{method="GET",route="/v1/jobs/:project/:id",status="404"}')).toBe(2);
    expect(sample(text, 'pim_sync_http_requests_total{method="POST",route="/v1/sync",status="401"}')).toBe(1);
    expect(sample(text, 'pim_sync_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    // In no label: a sample's value may hold the digits by chance (a CPU time of 0.044711 s did).
    const labelSets = text.match(/\{[^}]*\}/g) ?? [];
    expect(labelSets.length).toBeGreaterThan(0);
    expect(labelSets.filter((labels) => labels.includes("999999") || labels.includes("999998"))).toEqual([]);
    expect(text).not.toContain("not-a-route");
    expect(sample(text, 'pim_sync_auth_refused_total{surface="trigger",reason="invalid"}')).toBe(1);
  });

  test("passes `promtool check metrics` on the real scrape, after a sync, an add-options job and refused requests", async () => {
    const sync = await client.call("/v1/sync", { token: TRIGGER_TOKEN, body: { project: PROJECT } });
    await completed(sync);
    const add = await client.call("/v1/add-options", {
      token: TRIGGER_TOKEN,
      body: { project: PROJECT, attribute: "color", options: [{ name: "teal", label: { en_US: "Teal" } }] },
    });
    await completed(add);
    await client.call("/v1/sync", { token: "not-the-trigger-token-0000", body: { project: PROJECT } });
    const text = await scrape();
    const check = await promtoolCheckMetrics(text);
    expect(check.output).toBe("");
    expect(check.code).toBe(0);
  });
});

describe("the gauges a worker reads at scrape time", () => {
  const scrapeOf = (ready: () => Promise<boolean>) =>
    createWorkerMetrics({ projects: [PROJECT], jobCounts: async () => ({}), ready }).registry.metrics();

  test("`pim_sync_ready` is 0 while the readiness check finds a reason, or fails itself", async () => {
    expect(sample(await scrapeOf(async () => true), "pim_sync_ready")).toBe(1);
    expect(sample(await scrapeOf(async () => false), "pim_sync_ready")).toBe(0);
    expect(sample(await scrapeOf(() => Promise.reject(new Error("Redis away"))), "pim_sync_ready")).toBe(0);
  });
});
