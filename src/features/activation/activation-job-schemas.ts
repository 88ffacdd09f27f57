import { z } from "zod";
import { payloadDepthProblem } from "./payload-depth-problem.js";

const connection = z.string().trim().min(1, "must be a channel connection id").max(200);
/** An offer or a shipment: any object, nested at most MAX_PAYLOAD_DEPTH levels. */
const jsonObject = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const problem = payloadDepthProblem(value);
  if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
});

/**
 * Data of the Activation jobs (validated when enqueued and when processed, like every job).
 * Offers and shipments are the caller's objects, sent unchanged; no credentials in job data.
 */
export const activationJobSchemas = {
  ordersPull: z.strictObject({
    connection,
    trigger: z.enum(["schedule", "cli", "api", "replay"]).default("cli"),
  }),
  offersPut: z.strictObject({
    connection,
    offers: z.array(jsonObject, { error: "must be an array of offer objects" }).min(1, "must hold at least one offer").max(10_000),
    force: z.boolean().default(false),
    requested_by: z.string().trim().min(1).max(200).optional(),
  }),
  /** Re-sends set-aside orders of a connection: those named, or every one. */
  ordersResend: z.strictObject({
    connection,
    order_ids: z.array(z.string().min(1).max(500)).min(1, "must name at least one order, or be left out for all").max(10_000).optional(),
    requested_by: z.string().trim().min(1).max(200).optional(),
  }),
  shipmentUpdate: z.strictObject({
    connection,
    shipment: jsonObject,
    requested_by: z.string().trim().min(1).max(200).optional(),
  }),
} as const;
