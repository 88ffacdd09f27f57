import { ACTIVATION_JOB_TIMEOUT_MS } from "../../activation/activation-assumptions.js";
import { activationJobSchemas } from "../../activation/activation-job-schemas.js";
import { connectionSummary } from "./connection-summary.js";
import { defineJob } from "./define-job.js";

/** Set-aside orders of a connection delivered again (`pim-sync activation resend`, the admin). */
export const activationOrdersResendJob = defineJob({
  name: "activation.orders.resend",
  queue: "activation",
  schema: activationJobSchemas.ordersResend,
  // Asked for by an operator: like a pull, a few quick attempts.
  attempts: 5,
  backoff: { type: "exponential", delay: 5_000, jitter: 0.5 },
  timeoutMs: () => ACTIVATION_JOB_TIMEOUT_MS,
  summary: connectionSummary,
  handler: async (data, context) => (await import("../../activation/activation-job-handlers.js")).resendRefusedJob(data, context),
  enqueue: { kind: "each", idempotentJobIdPrefix: "act-" },
});
