import type { ActivationClient } from "./activation-client.js";
import type { ActivationStateStore } from "./activation-state-store.js";
import { planOfferBatches } from "./plan-offer-batches.js";

export interface OffersReport {
  readonly connection: string;
  readonly sent: number;
  readonly skipped: number;
  readonly batches: number;
  /** Batches planned; more than `batches` when one failed. */
  readonly plannedBatches: number;
  /** Why the run stopped early (the API's message), or null. */
  readonly failure: string | null;
}

/**
 * Sends offers in batches, skipping those this connection already accepted (unless `force`).
 * Each batch is recorded as accepted right after its 2xx, so a failure later keeps the earlier
 * ones recorded; the first failure stops the run and is rethrown by the caller's choice via `error`.
 */
export async function putOffers(
  deps: { readonly client: ActivationClient; readonly state: ActivationStateStore },
  connection: string,
  offers: readonly unknown[],
  options: { readonly batchSize: number; readonly force: boolean; readonly signal?: AbortSignal },
): Promise<{ readonly report: OffersReport; readonly error: unknown }> {
  const accepted = await deps.state.acceptedOffers(connection);
  const plan = planOfferBatches(offers, accepted, { batchSize: options.batchSize, force: options.force });
  let sent = 0;
  let batches = 0;
  for (const batch of plan.batches) {
    try {
      await deps.client.putOffers(connection, batch.offers, options.signal);
    } catch (error) {
      const report = { connection, sent, skipped: plan.skipped, batches, plannedBatches: plan.batches.length, failure: (error as Error).message };
      return { report, error };
    }
    await deps.state.recordAcceptedOffers(connection, batch.hashes);
    sent += batch.offers.length;
    batches += 1;
  }
  return { report: { connection, sent, skipped: plan.skipped, batches, plannedBatches: plan.batches.length, failure: null }, error: null };
}
