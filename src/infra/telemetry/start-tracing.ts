import { trace } from "@opentelemetry/api";
import { OTLPTraceExporter as OtlpJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OtlpProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace";
import { FastifyOtelInstrumentation } from "@fastify/otel";
import { BullMQOtel } from "bullmq-otel";
import { EMPTY_REDACTOR, type Redactor } from "../secrets/redactor.js";
import { RedactingSpanProcessor } from "./redacting-span-processor.js";
import { QueueHousekeepingFilter } from "./queue-housekeeping-filter.js";
import { installTracingHooks } from "./tracing-hooks.js";
import type { TracingConfig } from "./tracing-env.js";

/** Probed every few seconds by orchestrators and scrapers: a trace each would drown the rest. */
const UNTRACED_PATHS: ReadonlySet<string> = new Set(["/healthz", "/readyz", "/health", "/metrics"]);
const untraced = (url: string | undefined): boolean => UNTRACED_PATHS.has((url ?? "").split("?")[0] ?? "");

export interface RunningTracing {
  /** The secrets of the config a command loaded (see RedactingSpanProcessor). */
  useRedactor(redactor: Redactor): void;
  /** Exports the spans batched so far. */
  forceFlush(): Promise<void>;
  /** Exports the spans still batched, then stops; the hooks are no-ops again. */
  shutdown(): Promise<void>;
}

/**
 * The OpenTelemetry SDK for one pim-sync process. Imported only when tracing is on (see
 * open-tracing.ts), and started before any command module is loaded, so the HTTP server
 * instrumentation patches `http` before fastify takes it. Spans are batched, scrubbed of the
 * configured secrets and sent over OTLP/HTTP; `exporter` replaces the OTLP one in tests.
 *
 * - undici (every upstream call: PIM, service, Activation, webhook) and fastify (the request,
 *   its hooks and handler) publish on diagnostics_channel; their instrumentations subscribe.
 * - `http` gives the incoming request's server span and reads a caller's `traceparent`.
 *   Outgoing `http` is not instrumented: pim-sync calls upstreams with undici only.
 * - BullMQ carries the context from the enqueue into the job (bullmq-otel, see tracing-hooks.ts).
 * No instrumentation records headers: an Authorization header never becomes an attribute.
 * Metrics and logs stay with Prometheus and pino: the SDK is given no reader and no log processor.
 */
export function startTracing(config: TracingConfig, options: { readonly exporter?: SpanExporter } = {}): RunningTracing {
  let redactor: Redactor = EMPTY_REDACTOR;
  const exporter =
    options.exporter ??
    (config.protocol === "http/json"
      ? new OtlpJsonExporter({ url: config.tracesUrl })
      : new OtlpProtobufExporter({ url: config.tracesUrl }));
  const processor = new QueueHousekeepingFilter(
    new RedactingSpanProcessor(new BatchSpanProcessor({ exporter, ...config.batch }), () => redactor),
  );
  const sdk = new NodeSDK({
    serviceName: config.serviceName,
    spanProcessors: [processor],
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        disableOutgoingRequestInstrumentation: true,
        ignoreIncomingRequestHook: (request) => untraced(request.url),
      }),
      new UndiciInstrumentation(),
      new FastifyOtelInstrumentation({ registerOnInitialization: true, ignorePaths: (route) => untraced(route.url) }),
    ],
  });
  sdk.start();
  const uninstall = installTracingHooks({
    queueTelemetry: new BullMQOtel(),
    annotate(attributes) {
      trace.getActiveSpan()?.setAttributes(attributes);
    },
  });
  return {
    useRedactor(next) {
      redactor = next;
    },
    forceFlush: () => processor.forceFlush(),
    async shutdown() {
      uninstall();
      await sdk.shutdown();
    },
  };
}
