import type { BullMQOtel } from "bullmq-otel";
import type { SpanAttributeValues } from "./span-attribute-names.js";

/**
 * What the rest of pim-sync knows of tracing: nothing of OpenTelemetry, so that with tracing off
 * no OpenTelemetry module is ever loaded (start-tracing.ts is imported only when it is on) and
 * every call here is a no-op.
 */
export interface TracingHooks {
  /** BullMQ's `telemetry` option for Queues and Workers; undefined when tracing is off. */
  readonly queueTelemetry: BullMQOtel | undefined;
  /** Adds attributes to the span active in the caller's context (a request's, a job's). */
  annotate(attributes: SpanAttributeValues): void;
}

const OFF: TracingHooks = {
  queueTelemetry: undefined,
  annotate: () => undefined,
};

let current: TracingHooks = OFF;

export function tracingHooks(): TracingHooks {
  return current;
}

/** Installed by start-tracing.ts; the returned function puts the no-op hooks back. */
export function installTracingHooks(hooks: TracingHooks): () => void {
  current = hooks;
  return () => {
    if (current === hooks) current = OFF;
  };
}
