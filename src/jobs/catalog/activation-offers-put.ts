import { ACTIVATION_JOB_TIMEOUT_MS } from "../../activation/activation-assumptions.js";
import { activationJobSchemas } from "../../activation/activation-job-schemas.js";
import { connectionSummary } from "./connection-summary.js";
import { defineJob } from "./define-job.js";

/** Offers pushed to one channel connection (POST /v1/activation/offers). */
export const activationOffersPutJob = defineJob({
  name: "activation.offers.put",
  queue: "activation",
  schema: activationJobSchemas.offersPut,
  // 8 attempts: 10 s doubling to about 21 min, like add-options (a push someone asked for).
  attempts: 8,
  backoff: { type: "exponential", delay: 10_000, jitter: 0.5 },
  timeoutMs: () => ACTIVATION_JOB_TIMEOUT_MS,
  summary: connectionSummary,
  handler: async (data, context) => (await import("../../activation/activation-job-handlers.js")).putOffersJob(data, context),
  enqueue: { kind: "each", idempotentJobIdPrefix: "act-" },
});
