import type { Telemetry } from "bullmq";
import { tracingHooks } from "../../infra/telemetry/tracing-hooks.js";

/**
 * BullMQ's `telemetry` option, given to every Queue and Worker only while tracing is on: the
 * enqueue's context then travels with the job (in its options) and the job's run continues the
 * request's trace. Off, BullMQ runs without it, as before.
 */
export function queueTelemetryOption(): { telemetry?: Telemetry } {
  const telemetry = tracingHooks().queueTelemetry;
  return telemetry === undefined ? {} : { telemetry };
}
