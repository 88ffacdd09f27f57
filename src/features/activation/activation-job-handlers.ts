import type { z } from "zod";
import type { ActivationJobContext } from "./activation-job-context.js";
import type { activationJobSchemas } from "./activation-job-schemas.js";
import { pullOrders, type PullReport } from "./pull-orders.js";
import { putOffers, type OffersReport } from "./put-offers.js";
import { resendRefused, type ResendReport } from "./resend-refused.js";

type DataOf<K extends keyof typeof activationJobSchemas> = z.output<(typeof activationJobSchemas)[K]>;

/*
 * The Activation jobs' handlers (their catalog entries are in src/jobs/catalog/). Thin, like the
 * sync's: call the core, log, turn a failure into an error for the classifier.
 */

export async function pullOrdersJob(data: DataOf<"ordersPull">, context: ActivationJobContext): Promise<PullReport> {
  const { runtime } = context;
  const report = await pullOrders({ client: runtime.client, state: runtime.state, sink: context.sink }, data.connection, {
    all: false,
    signal: context.signal,
  });
  for (const where of report.withoutId) await context.log(`order without id skipped (${where})`);
  for (const refusal of report.refused)
    await context.log(`order ${refusal.orderId} refused by the sink and set aside (delivery ${refusal.deliveryId}): ${refusal.reason}`);
  await context.log(
    `pulled ${data.connection}: ${report.emitted} order(s) delivered, ${report.refused.length} refused (set aside), ${report.unchanged} unchanged, ${report.withoutId.length} without id, ${report.pages} page(s)`,
  );
  return report;
}

export async function resendRefusedJob(data: DataOf<"ordersResend">, context: ActivationJobContext): Promise<ResendReport> {
  const { runtime } = context;
  const report = await resendRefused({ state: runtime.state, sink: context.sink }, data.connection, data.order_ids, {
    signal: context.signal,
  });
  await context.log(
    `re-sent set-aside orders of ${data.connection}: ${report.delivered.length} delivered, ${report.refusedAgain.length} refused again, ${report.superseded.length} superseded by a newer version, ${report.notFound.length} not set aside`,
  );
  return report;
}

export async function putOffersJob(data: DataOf<"offersPut">, context: ActivationJobContext): Promise<OffersReport> {
  const { runtime } = context;
  // Offers without a key throw OfferKeyError before anything is sent (permanent: classify-failure.ts).
  const { report, error } = await putOffers({ client: runtime.client, state: runtime.state }, data.connection, data.offers, {
    batchSize: runtime.activation.offers.batch_size,
    force: data.force,
    keyField: runtime.activation.offers.key,
    signal: context.signal,
  });
  await context.log(
    `offers for ${data.connection}: ${report.sent} sent, ${report.skipped} skipped, ${report.batches} of ${report.plannedBatches} batch(es)`,
  );
  // Accepted batches are recorded: a retry sends only what is left.
  if (error !== null) throw error;
  return report;
}

export async function updateShipmentJob(
  data: DataOf<"shipmentUpdate">,
  context: ActivationJobContext,
): Promise<{ readonly connection: string; readonly accepted: true }> {
  await context.runtime.client.updateShipment(data.connection, data.shipment, context.signal);
  await context.log(`shipment for ${data.connection} accepted`);
  return { connection: data.connection, accepted: true };
}
