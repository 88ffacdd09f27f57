import { HttpError } from "../../infra/http/http-error.js";
import type { ActivationClient } from "../../upstreams/activation/activation-client.js";
import type { ActivationStateStore } from "./activation-state-store.js";
import { keyOffers, planOfferBatches } from "./plan-offer-batches.js";
import { messageOf } from "../../core/errors/message-of.js";

export interface OffersReport {
  readonly connection: string;
  readonly sent: number;
  readonly skipped: number;
  /** Offers of the batch the API refused (a 4xx), if one was: 0 otherwise. */
  readonly refused: number;
  readonly batches: number;
  /** Batches planned; more than `batches` when one failed. */
  readonly plannedBatches: number;
  /** Why the run stopped early (the API's message), or null. */
  readonly failure: string | null;
}

/**
 * Sends offers in batches, skipping those whose content this connection last accepted for the
 * same key (unless `force`). Each batch is recorded as accepted right after its 2xx, so a failure
 * later keeps the earlier ones recorded; the first failure stops the run and is returned as
 * `error` for the caller to rethrow or report. Offers without a key throw before anything is sent.
 */
export async function putOffers(
  deps: { readonly client: ActivationClient; readonly state: ActivationStateStore },
  connection: string,
  offers: readonly unknown[],
  options: { readonly batchSize: number; readonly force: boolean; readonly keyField: string; readonly signal?: AbortSignal },
): Promise<{ readonly report: OffersReport; readonly error: unknown }> {
  const keyed = keyOffers(offers, options.keyField);
  const lastAccepted = options.force
    ? new Map<string, string>()
    : await deps.state.acceptedOffers(connection, [...new Set(keyed.map((offer) => offer.key))]);
  const plan = planOfferBatches(keyed, lastAccepted, { batchSize: options.batchSize, force: options.force });
  let sent = 0;
  let batches = 0;
  for (const batch of plan.batches) {
    try {
      await deps.client.putOffers(connection, batch.offers, options.signal);
    } catch (error) {
      const refused = isRefusal(error) ? batch.offers.length : 0;
      const report = {
        connection,
        sent,
        skipped: plan.skipped,
        refused,
        batches,
        plannedBatches: plan.batches.length,
        failure: messageOf(error),
      };
      return { report, error };
    }
    await deps.state.recordAcceptedOffers(connection, batch.accepted);
    sent += batch.offers.length;
    batches += 1;
  }
  return {
    report: { connection, sent, skipped: plan.skipped, refused: 0, batches, plannedBatches: plan.batches.length, failure: null },
    error: null,
  };
}

/** The API refused the batch (a 4xx that asking again will not change). */
function isRefusal(error: unknown): boolean {
  return error instanceof HttpError && error.status !== undefined && error.status >= 400 && error.status < 500 && !error.transient;
}
