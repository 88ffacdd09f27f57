import { activationJobSchemas } from "../../features/activation/activation-job-schemas.js";
import { ACTIVATION_RETRIES, defineActivationJob } from "./define-activation-job.js";

/** Offers pushed to one channel connection (POST /v1/activation/offers). */
export const activationOffersPutJob = defineActivationJob({
  name: "activation.offers.put",
  schema: activationJobSchemas.offersPut,
  retry: ACTIVATION_RETRIES.push,
  handler: async (data, context) => (await import("../../features/activation/activation-job-handlers.js")).putOffersJob(data, context),
});
