import { describe, expect } from "vitest";
import { servingUrlOf, waitForExit } from "../../../support/process-cli.js";
import { SIM_CREDENTIALS, SIM_SECRETS } from "../../../support/process-config.js";
import { waitForJobState } from "../../../support/process-jobs.js";
import { leakedSecrets } from "../../../support/secret-leaks.js";
import { createTriggerClient } from "../../../support/trigger-client.js";
import { startOtlpReceiver, type OtlpReceiver } from "../../../support/otlp-receiver.js";
import { SPAN_KIND, type ReceivedSpan } from "../../../support/otlp-span.js";
import { test } from "../../../support/fixtures.js";
import { writeWorkerConfig, type ProcessTestFixtures } from "../../../support/worker-process.js";

const PROJECT = 67;
const TOKEN = "trigger-token-of-the-tracing-test-0123";
const SECRETS: readonly string[] = [TOKEN, SIM_CREDENTIALS.pim.client_id, ...SIM_SECRETS];

/** Every span of `spans` above `span`, nearest first. */
function ancestorsOf(span: ReceivedSpan, spans: readonly ReceivedSpan[]): ReceivedSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const out: ReceivedSpan[] = [];
  for (let parent = byId.get(span.parentSpanId); parent !== undefined; parent = byId.get(parent.parentSpanId)) out.push(parent);
  return out;
}

const portOf = (url: string): number => Number(new URL(url).port);

describe.each([
  { protocol: "http/protobuf", contentType: "application/x-protobuf", serviceName: undefined },
  { protocol: "http/json", contentType: "application/json", serviceName: "pim-sync-under-test" },
] as const)("pim-sync worker as a process, traced over OTLP $protocol to a loopback receiver", ({ protocol, contentType, serviceName }) => {
  let fixtures: ProcessTestFixtures;
  let receiver: OtlpReceiver;
  let configPath: string;

  test.beforeEach(async ({ sims, redis, tempDir, queues, closeAfter, cli }) => {
    fixtures = { cli, sims, redis, queues, tempDir };
    receiver = closeAfter(await startOtlpReceiver());
    configPath = await writeWorkerConfig(fixtures, {
      trigger: { token: TOKEN },
      server: { host: "127.0.0.1", port: 0 },
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color"] },
    });
  });

  test("a sync and an add-options request each make one trace, from the trigger request through the enqueue and the job to every upstream call, exported at SIGTERM, with no secret in it", async () => {
    const worker = fixtures.cli.spawn(["worker", "--config", configPath], {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        ...(serviceName === undefined ? {} : { OTEL_SERVICE_NAME: serviceName }),
        // Nothing is exported before the worker stops: what arrives was flushed by its SIGTERM path.
        OTEL_BSP_SCHEDULE_DELAY: "3600000",
        OTEL_BSP_MAX_QUEUE_SIZE: "100000",
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "100000",
      },
    });
    const client = createTriggerClient(await servingUrlOf(worker, 30_000).then((url) => () => url));

    const sync = await client.call("/v1/sync", { token: TOKEN, body: { project: PROJECT } });
    expect(sync.status).toBe(202);
    const syncId = (sync.json as { job_id: string }).job_id.split("/")[1] ?? "";
    await waitForJobState(fixtures.queues, PROJECT, syncId, "completed", 60_000);
    const add = await client.call("/v1/add-options", {
      token: TOKEN,
      body: { project: PROJECT, attribute: "color", options: [{ name: "teal", label: { en_US: "Teal" } }] },
    });
    expect(add.status).toBe(202);
    const addId = (add.json as { job_id: string }).job_id.split("/")[1] ?? "";
    await waitForJobState(fixtures.queues, PROJECT, addId, "completed", 60_000);
    // Instrumentations record request paths: one that carries a configured secret.
    const lookup = await client.call(`/v1/jobs/${PROJECT}/${addId}?note=${encodeURIComponent(TOKEN)}`, { token: TOKEN });
    expect(lookup.status).toBe(200);
    // Probes are not traced: an orchestrator polls them every few seconds.
    expect((await client.call("/healthz")).status).toBe(200);

    expect(receiver.exports()).toEqual([]);
    worker.signal("SIGTERM");
    expect((await waitForExit(worker, 60_000)).code).toBe(0);

    expect(receiver.errors()).toEqual([]);
    expect(receiver.exports().length).toBeGreaterThan(0);
    for (const received of receiver.exports())
      expect({ path: received.path, contentType: received.contentType }).toEqual({ path: "/v1/traces", contentType });
    const spans = receiver.spans();
    for (const span of spans) expect(span.resource["service.name"]).toBe(serviceName ?? "pim-sync");

    const traced = [
      { route: "/v1/sync", jobId: syncId, jobName: "sync.run" },
      { route: "/v1/add-options", jobId: addId, jobName: "options.add" },
    ];
    for (const { route, jobId, jobName } of traced) {
      const server = spans.filter((s) => s.kind === SPAN_KIND.server && s.attributes["url.path"] === route);
      expect(server, `the server span of ${route}`).toHaveLength(1);
      const root = server[0] as ReceivedSpan;
      expect(root.parentSpanId).toBe("");
      const trace = spans.filter((s) => s.traceId === root.traceId);
      const inTrace = (predicate: (s: ReceivedSpan) => boolean, what: string): ReceivedSpan => {
        const found = trace.filter(predicate);
        expect(found, `${what} in the trace of ${route}`).toHaveLength(1);
        return found[0] as ReceivedSpan;
      };
      const request = inTrace((s) => s.scope === "@fastify/otel" && s.name === "request", "fastify's request span");
      expect({ parent: request.parentSpanId, route: request.attributes["http.route"] }).toEqual({ parent: root.spanId, route });
      const handler = inTrace((s) => s.attributes["fastify.type"] === "request-handler", "the route handler's span");
      expect(handler.attributes).toMatchObject({
        "pim_sync.project": PROJECT,
        "pim_sync.job.id": jobId,
        "pim_sync.enqueue.status": "queued",
      });
      const produce = inTrace((s) => s.kind === SPAN_KIND.producer, "BullMQ's add span");
      expect(produce.name).toBe(`add project-${PROJECT}.${jobName}`);
      expect(ancestorsOf(produce, trace).map((s) => s.spanId)).toEqual([handler.spanId, request.spanId, root.spanId]);
      const consume = inTrace((s) => s.kind === SPAN_KIND.consumer, "BullMQ's process span");
      expect(consume.parentSpanId).toBe(produce.spanId);
      expect(consume.attributes).toMatchObject({
        "pim_sync.project": PROJECT,
        "pim_sync.job.id": jobId,
        "pim_sync.job.name": jobName,
        "pim_sync.job.outcome": "completed",
      });
      const upstreamCalls = trace.filter((s) => s.kind === SPAN_KIND.client && ancestorsOf(s, trace).includes(consume));
      const ports = new Set(upstreamCalls.map((s) => s.attributes["server.port"]));
      expect(ports, `the job of ${route} called the PIM and the service`).toEqual(
        new Set([portOf(fixtures.sims.pim.url), portOf(fixtures.sims.service.url)]),
      );
    }

    // BullMQ's housekeeping (stalled checks every second here) is not a trace of its own.
    expect(
      spans
        .filter((s) => s.scope === "bullmq" && s.parentSpanId === "")
        .map((s) => s.name)
        .sort(),
    ).toEqual([]);

    expect(spans.filter((s) => String(s.attributes["url.path"]).startsWith("/healthz"))).toEqual([]);

    // The secret in the looked-up path reached the spans only as [redacted].
    const lookupSpans = spans.filter((s) => String(s.attributes["url.path"] ?? "").startsWith(`/v1/jobs/${PROJECT}/${addId}?`));
    expect(lookupSpans.length).toBeGreaterThan(0);
    for (const span of lookupSpans) expect(span.attributes["url.path"]).toBe(`/v1/jobs/${PROJECT}/${addId}?note=[redacted]`);
    const everything = [...receiver.exports().map((e) => e.raw), JSON.stringify(spans)].join("\n");
    expect(leakedSecrets(everything, SECRETS)).toEqual([]);
  });
});
