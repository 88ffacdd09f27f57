import { chunksOf } from "../../upstreams/pim/chunks-of.js";
import type { AcceptedOffer } from "./activation-state-store.js";
import { contentHash } from "../../core/json/canonical-json.js";
import { OfferKeyError, offerKeyOf } from "./offer-key.js";

export interface KeyedOffer extends AcceptedOffer {
  readonly offer: unknown;
}

export interface OfferBatchPlan {
  /** Batches of at most `batchSize` offers, each with the keys and hashes to record once it is accepted. */
  readonly batches: readonly { readonly offers: readonly unknown[]; readonly accepted: readonly AcceptedOffer[] }[];
  readonly skipped: number;
}

/** Every offer with its key and content hash; throws OfferKeyError naming every offer without a key. */
export function keyOffers(offers: readonly unknown[], field: string): KeyedOffer[] {
  const keyed: KeyedOffer[] = [];
  const missing: number[] = [];
  offers.forEach((offer, index) => {
    const key = offerKeyOf(offer, field);
    if (key === null) missing.push(index + 1);
    else keyed.push({ key, hash: contentHash(offer), offer });
  });
  if (missing.length > 0) throw new OfferKeyError(field, missing);
  return keyed;
}

/**
 * Pure: which offers to send and how to batch them. An offer is skipped (unless `force`) when
 * the last content the connection accepted for its key is the same: an offer that goes back to
 * an earlier content (stock 5, 0, then 5) is sent. A repeat of the same key and content earlier
 * in the same input is skipped too. Offers are sent unchanged, in input order.
 */
export function planOfferBatches(
  offers: readonly KeyedOffer[],
  lastAccepted: ReadonlyMap<string, string>,
  options: { readonly batchSize: number; readonly force: boolean },
): OfferBatchPlan {
  const planned = new Map<string, string>();
  const send: KeyedOffer[] = [];
  let skipped = 0;
  for (const offer of offers) {
    const previous = planned.get(offer.key) ?? (options.force ? undefined : lastAccepted.get(offer.key));
    if (previous === offer.hash) {
      skipped += 1;
      continue;
    }
    planned.set(offer.key, offer.hash);
    send.push(offer);
  }
  return {
    batches: chunksOf(send, options.batchSize).map((chunk) => ({
      offers: chunk.map((item) => item.offer),
      accepted: chunk.map(({ key, hash }) => ({ key, hash })),
    })),
    skipped,
  };
}
