import { ACTIVATION_JOB_TIMEOUT_MS } from "../../activation/activation-assumptions.js";
import { activationJobSchemas } from "../../activation/activation-job-schemas.js";
import { connectionSummary } from "./connection-summary.js";
import { defineJob } from "./define-job.js";

/** A shipment of one channel connection's order (POST /v1/activation/shipments). */
export const activationShipmentUpdateJob = defineJob({
  name: "activation.shipment.update",
  queue: "activation",
  schema: activationJobSchemas.shipmentUpdate,
  attempts: 8,
  backoff: { type: "exponential", delay: 10_000, jitter: 0.5 },
  timeoutMs: () => ACTIVATION_JOB_TIMEOUT_MS,
  summary: connectionSummary,
  handler: async (data, context) => (await import("../../activation/activation-job-handlers.js")).updateShipmentJob(data, context),
  enqueue: { kind: "each", idempotentJobIdPrefix: "act-" },
});
