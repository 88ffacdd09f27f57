import { describe, expect, it } from "vitest";
import { tracingConfigOf } from "../../../../src/infra/telemetry/tracing-env.js";
import { problemsOf } from "../../../support/problems-of.js";

const envProblems = (env: Record<string, string>): readonly string[] => problemsOf(() => tracingConfigOf(env));

const ENDPOINT = "http://collector.internal:4318";

describe("tracingConfigOf: the standard OTEL_* variables", () => {
  it("is off (null) with no endpoint, and when OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none say so", () => {
    expect(tracingConfigOf({})).toBeNull();
    expect(tracingConfigOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "", OTEL_SERVICE_NAME: "x" })).toBeNull();
    expect(tracingConfigOf({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: "true" })).toBeNull();
    expect(tracingConfigOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: ENDPOINT, OTEL_TRACES_EXPORTER: "none" })).toBeNull();
  });

  it("is on with the base endpoint: spans go to <endpoint>/v1/traces in http/protobuf, as service pim-sync", () => {
    expect(tracingConfigOf({ OTEL_EXPORTER_OTLP_ENDPOINT: `${ENDPOINT}/` })).toEqual({
      tracesUrl: `${ENDPOINT}/v1/traces`,
      protocol: "http/protobuf",
      serviceName: "pim-sync",
      batch: {},
    });
    expect(tracingConfigOf({ OTEL_EXPORTER_OTLP_ENDPOINT: `${ENDPOINT}/otlp`, OTEL_SDK_DISABLED: "false" })?.tracesUrl).toBe(
      `${ENDPOINT}/otlp/v1/traces`,
    );
  });

  it("the traces endpoint and protocol are taken as given and win over the general ones", () => {
    const config = tracingConfigOf({
      OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/ingest",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: " pim-sync-eu ",
    });
    expect(config).toEqual({ tracesUrl: "https://traces.example/ingest", protocol: "http/json", serviceName: "pim-sync-eu", batch: {} });
    expect(tracingConfigOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })?.protocol).toBe(
      "http/json",
    );
  });

  it("passes the batch processor's variables on", () => {
    const config = tracingConfigOf({
      OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT,
      OTEL_BSP_SCHEDULE_DELAY: "200",
      OTEL_BSP_EXPORT_TIMEOUT: "1000",
      OTEL_BSP_MAX_QUEUE_SIZE: "4096",
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "64",
    });
    expect(config?.batch).toEqual({ scheduledDelayMillis: 200, exportTimeoutMillis: 1000, maxQueueSize: 4096, maxExportBatchSize: 64 });
  });

  it("a wrong value is a ConfigError naming each variable, even with no endpoint set (a typo must not mean 'no traces' silently)", () => {
    expect(envProblems({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toEqual([
      "OTEL_EXPORTER_OTLP_PROTOCOL: must be one of http/protobuf, http/json (grpc is not supported)",
    ]);
    expect(
      envProblems({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "collector:4318",
        OTEL_BSP_SCHEDULE_DELAY: "soon",
        OTEL_TRACES_EXPORTER: "zipkin",
      }),
    ).toEqual([
      expect.stringMatching(/^OTEL_TRACES_EXPORTER: must be otlp or none/),
      "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: must be an http(s) URL",
      expect.stringMatching(/^OTEL_BSP_SCHEDULE_DELAY: /),
    ]);
    expect(envProblems({ OTEL_SDK_DISABLED: "yes" })).toEqual(["OTEL_SDK_DISABLED: must be true or false"]);
  });
});
