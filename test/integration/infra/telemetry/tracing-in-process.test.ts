import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SpanStatusCode, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedactor, REDACTED } from "../../../../src/infra/secrets/redactor.js";
import { SPAN_ATTRIBUTES } from "../../../../src/infra/telemetry/span-attribute-names.js";
import { startTracing, type RunningTracing } from "../../../../src/infra/telemetry/start-tracing.js";
import { tracingHooks } from "../../../../src/infra/telemetry/tracing-hooks.js";
import { leakedSecrets } from "../../../support/secret-leaks.js";

const SECRET = "s3cret/token+value 42";
const USER = "sync-user";
const PASSWORD = "pass:word/99+x";

/** What of a span can carry text, as plain data (the leak check reads it as JSON). */
const textOf = (span: ReadableSpan) => ({
  name: span.name,
  attributes: span.attributes,
  events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
  status: span.status,
  links: span.links.map((l) => l.attributes),
});

describe("tracing in this process: the SDK as start-tracing.ts builds it, spans kept in memory", () => {
  const exporter = new InMemorySpanExporter();
  let tracing: RunningTracing;
  let upstream: Server;
  let origin: string;

  beforeAll(async () => {
    tracing = startTracing(
      { tracesUrl: "http://127.0.0.1:9/v1/traces", protocol: "http/protobuf", serviceName: "pim-sync-in-process", batch: {} },
      { exporter },
    );
    tracing.useRedactor(createRedactor({ secrets: [SECRET, PASSWORD], basicPairs: [[USER, PASSWORD]] }));
    upstream = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it("an undici call made inside a span is its child, its URL scrubbed of the secret it carried in the query; the annotate hook writes on the active span", async () => {
    const tracer = trace.getTracer("pim-sync-test");
    await tracer.startActiveSpan("job", async (span) => {
      tracingHooks().annotate({ [SPAN_ATTRIBUTES.project]: 67, [SPAN_ATTRIBUTES.jobId]: "42" });
      const answer = await request(`${origin}/api/rest/v1/things?access_token=${encodeURIComponent(SECRET)}`);
      await answer.body.text();
      span.end();
    });
    await tracing.forceFlush();
    const spans = exporter.getFinishedSpans();
    const job = spans.find((s) => s.name === "job");
    const call = spans.find((s) => s.instrumentationScope.name === "@opentelemetry/instrumentation-undici");
    expect(job?.attributes).toMatchObject({ "pim_sync.project": 67, "pim_sync.job.id": "42" });
    expect(call?.parentSpanContext?.spanId).toBe(job?.spanContext().spanId);
    expect(call?.attributes["url.full"]).toBe(`${origin}/api/rest/v1/things?access_token=${REDACTED}`);
    expect(leakedSecrets(JSON.stringify(spans.map(textOf)), [SECRET])).toEqual([]);
  });

  it("every place of a span that holds text is scrubbed, in every spelling of the secret (raw, URL-encoded, JSON-escaped, Basic pair)", async () => {
    exporter.reset();
    const basic = Buffer.from(`${USER}:${PASSWORD}`).toString("base64");
    const span = trace.getTracer("pim-sync-test").startSpan(`call with ${SECRET}`, {
      links: [{ context: { traceId: "0".repeat(31) + "1", spanId: "0".repeat(15) + "1", traceFlags: 1 }, attributes: { note: PASSWORD } }],
    });
    span.setAttributes({
      plain: SECRET,
      encoded: `q=${encodeURIComponent(SECRET)}`,
      list: ["ok", JSON.stringify({ password: PASSWORD })],
      header: `Basic ${basic}`,
      count: 3,
    });
    span.addEvent(`event ${PASSWORD}`, { detail: SECRET });
    span.setStatus({ code: SpanStatusCode.ERROR, message: `upstream echoed ${SECRET}` });
    span.end();
    await tracing.forceFlush();
    const [exported] = exporter.getFinishedSpans();
    expect(exported && textOf(exported)).toMatchObject({
      name: `call with ${REDACTED}`,
      attributes: { plain: REDACTED, encoded: `q=${REDACTED}`, header: `Basic ${REDACTED}`, count: 3 },
      status: { message: `upstream echoed ${REDACTED}` },
    });
    expect(leakedSecrets(JSON.stringify(exported && textOf(exported)), [SECRET, PASSWORD])).toEqual([]);
  });

  it("BullMQ's housekeeping spans (internal, with no parent) are not exported; its spans under a request or job are", async () => {
    exporter.reset();
    const bullmq = trace.getTracer("bullmq");
    bullmq.startSpan("moveStalledJobsToWait project-67").end();
    await trace.getTracer("pim-sync-test").startActiveSpan("request", async (parent) => {
      bullmq.startSpan("complete project-67").end();
      parent.end();
    });
    await tracing.forceFlush();
    expect(
      exporter
        .getFinishedSpans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(["complete project-67", "request"]);
  });

  it("while it runs, BullMQ is given its telemetry; once shut down, every hook is a no-op again", async () => {
    expect(tracingHooks().queueTelemetry).toBeDefined();
    await tracing.shutdown();
    expect(tracingHooks().queueTelemetry).toBeUndefined();
    await trace.getTracer("pim-sync-test").startActiveSpan("after", async (span) => {
      tracingHooks().annotate({ [SPAN_ATTRIBUTES.project]: 67 });
      span.end();
    });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
