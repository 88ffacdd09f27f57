import { activationJobSchemas } from "../../features/activation/activation-job-schemas.js";
import { ACTIVATION_RETRIES, defineActivationJob } from "./define-activation-job.js";

/** A shipment of one channel connection's order (POST /v1/activation/shipments). */
export const activationShipmentUpdateJob = defineActivationJob({
  name: "activation.shipment.update",
  schema: activationJobSchemas.shipmentUpdate,
  retry: ACTIVATION_RETRIES.push,
  handler: async (data, context) => (await import("../../features/activation/activation-job-handlers.js")).updateShipmentJob(data, context),
});
