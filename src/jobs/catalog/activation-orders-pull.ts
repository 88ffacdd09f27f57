import { ACTIVATION_JOB_TIMEOUT_MS } from "../../activation/activation-assumptions.js";
import { activationJobSchemas } from "../../activation/activation-job-schemas.js";
import { pullDeduplicationId } from "../../redis/queue-names.js";
import { connectionSummary } from "./connection-summary.js";
import { defineJob } from "./define-job.js";

/** A pull of one channel connection's orders into the sink: scheduled, or asked for by `pim-sync activation`. */
export const activationOrdersPullJob = defineJob({
  name: "activation.orders.pull",
  queue: "activation",
  schema: activationJobSchemas.ordersPull,
  // 5 attempts: 5 s doubling to 40 s, about 75 s covered; the next scheduled pull (5 min) takes over after that.
  attempts: 5,
  backoff: { type: "exponential", delay: 5_000, jitter: 0.5 },
  timeoutMs: () => ACTIVATION_JOB_TIMEOUT_MS,
  summary: connectionSummary,
  handler: async (data, context) => (await import("../../activation/activation-job-handlers.js")).pullOrdersJob(data, context),
  enqueue: { kind: "one-waiting", deduplicationId: (data) => pullDeduplicationId(data.connection) },
});
