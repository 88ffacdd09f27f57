import { activationJobSchemas } from "../../features/activation/activation-job-schemas.js";
import { ACTIVATION_RETRIES, defineActivationJob } from "./define-activation-job.js";

/** Set-aside orders of a connection delivered again (`pim-sync activation resend`, the admin). */
export const activationOrdersResendJob = defineActivationJob({
  name: "activation.orders.resend",
  schema: activationJobSchemas.ordersResend,
  retry: ACTIVATION_RETRIES.quick,
  handler: async (data, context) => (await import("../../features/activation/activation-job-handlers.js")).resendRefusedJob(data, context),
});
