import { z } from "zod";
import { ConfigError } from "../../settings/config-error.js";

/** The OTLP encodings over HTTP this worker exports traces with. */
export const OTLP_PROTOCOLS = ["http/protobuf", "http/json"] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** Where and how spans go, read from the standard OTEL_* variables; null when tracing is off. */
export interface TracingConfig {
  /** The full URL spans are POSTed to (`…/v1/traces` unless the traces endpoint was given whole). */
  readonly tracesUrl: string;
  readonly protocol: OtlpProtocol;
  readonly serviceName: string;
  /** The batch span processor's settings (OTEL_BSP_*); the SDK's defaults where unset. */
  readonly batch: {
    readonly scheduledDelayMillis?: number;
    readonly exportTimeoutMillis?: number;
    readonly maxQueueSize?: number;
    readonly maxExportBatchSize?: number;
  };
}

const endpoint = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const count = z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(0, "must not be negative");
const protocol = z.enum(OTLP_PROTOCOLS, { error: `must be one of ${OTLP_PROTOCOLS.join(", ")} (grpc is not supported)` });

/**
 * The variables pim-sync reads itself; the exporter reads the rest of the OTLP ones
 * (OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, _COMPRESSION), the SDK the sampler and span limits
 * (OTEL_TRACES_SAMPLER, OTEL_SPAN_*_LIMIT). An empty value counts as unset, as the specification
 * asks.
 */
export const tracingEnvSchema = z.object({
  OTEL_SDK_DISABLED: z
    .enum(["true", "false"], { error: "must be true or false" })
    .optional()
    .describe("true turns tracing off whatever else is set"),
  OTEL_TRACES_EXPORTER: z
    .enum(["otlp", "none"], { error: "must be otlp or none (the only exporter pim-sync ships is OTLP over HTTP)" })
    .optional()
    .describe("none turns tracing off; otlp (the default) exports over OTLP/HTTP"),
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint
    .optional()
    .describe("the collector's base URL; spans go to <it>/v1/traces. Setting it (or the traces endpoint) turns tracing on"),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint.optional().describe("the full URL spans are sent to; wins over OTEL_EXPORTER_OTLP_ENDPOINT"),
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol.optional().describe("http/protobuf (the default) or http/json"),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol.optional().describe("the protocol of traces alone; wins over OTEL_EXPORTER_OTLP_PROTOCOL"),
  OTEL_SERVICE_NAME: z.string().trim().min(1).default("pim-sync").describe("service.name of every span"),
  OTEL_BSP_SCHEDULE_DELAY: count.optional().describe("ms between two exports of the batched spans (SDK default 5000)"),
  OTEL_BSP_EXPORT_TIMEOUT: count.optional().describe("ms one export may take (SDK default 30000)"),
  OTEL_BSP_MAX_QUEUE_SIZE: count.optional().describe("spans kept waiting for export; more are dropped (SDK default 2048)"),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: count.optional().describe("spans sent in one export (SDK default 512)"),
});

const KEYS = Object.keys(tracingEnvSchema.shape) as (keyof typeof tracingEnvSchema.shape)[];

/**
 * Tracing is on when an OTLP endpoint is set and neither OTEL_SDK_DISABLED nor
 * OTEL_TRACES_EXPORTER=none turns it off. A variable with a wrong value is a ConfigError that
 * names it, whether or not tracing would be on: a typo should not silently mean "no traces".
 */
export function tracingConfigOf(env: Readonly<Record<string, string | undefined>>): TracingConfig | null {
  const given: Record<string, string> = {};
  for (const key of KEYS) {
    const value = env[key]?.trim();
    if (value !== undefined && value !== "") given[key] = value;
  }
  const parsed = tracingEnvSchema.safeParse(given);
  if (!parsed.success)
    throw new ConfigError(
      "the environment (OTEL_* variables)",
      parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    );
  const vars = parsed.data;
  if (vars.OTEL_SDK_DISABLED === "true" || vars.OTEL_TRACES_EXPORTER === "none") return null;
  const tracesUrl =
    vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (vars.OTEL_EXPORTER_OTLP_ENDPOINT === undefined ? undefined : `${vars.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`);
  if (tracesUrl === undefined) return null;
  return {
    tracesUrl,
    protocol: vars.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? vars.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf",
    serviceName: vars.OTEL_SERVICE_NAME,
    batch: {
      ...(vars.OTEL_BSP_SCHEDULE_DELAY === undefined ? {} : { scheduledDelayMillis: vars.OTEL_BSP_SCHEDULE_DELAY }),
      ...(vars.OTEL_BSP_EXPORT_TIMEOUT === undefined ? {} : { exportTimeoutMillis: vars.OTEL_BSP_EXPORT_TIMEOUT }),
      ...(vars.OTEL_BSP_MAX_QUEUE_SIZE === undefined ? {} : { maxQueueSize: vars.OTEL_BSP_MAX_QUEUE_SIZE }),
      ...(vars.OTEL_BSP_MAX_EXPORT_BATCH_SIZE === undefined ? {} : { maxExportBatchSize: vars.OTEL_BSP_MAX_EXPORT_BATCH_SIZE }),
    },
  };
}
