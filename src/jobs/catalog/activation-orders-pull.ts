import { activationJobSchemas } from "../../features/activation/activation-job-schemas.js";
import { pullDeduplicationId } from "../../infra/redis/queue-names.js";
import { ACTIVATION_RETRIES, defineActivationJob } from "./define-activation-job.js";

/** A pull of one channel connection's orders into the sink: scheduled, or asked for by `pim-sync activation`. */
export const activationOrdersPullJob = defineActivationJob({
  name: "activation.orders.pull",
  schema: activationJobSchemas.ordersPull,
  retry: ACTIVATION_RETRIES.quick,
  handler: async (data, context) => (await import("../../features/activation/activation-job-handlers.js")).pullOrdersJob(data, context),
  enqueue: { kind: "one-waiting", deduplicationId: (data) => pullDeduplicationId(data.connection) },
});
