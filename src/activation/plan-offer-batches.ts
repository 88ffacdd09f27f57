import { chunksOf } from "../pim/chunks-of.js";
import { contentHash } from "./canonical-json.js";

export interface OfferBatchPlan {
  /** Batches of at most `batchSize` offers, each with the hashes to record once it is accepted. */
  readonly batches: readonly { readonly offers: readonly unknown[]; readonly hashes: readonly string[] }[];
  readonly skipped: number;
}

/**
 * Pure: which offers to send and how to batch them. An offer whose canonical JSON this
 * connection already accepted is skipped unless `force`; so is a repeat of an offer earlier in
 * the same input. Offers are sent unchanged, in input order.
 */
export function planOfferBatches(
  offers: readonly unknown[],
  accepted: ReadonlySet<string>,
  options: { readonly batchSize: number; readonly force: boolean },
): OfferBatchPlan {
  const seen = new Set<string>();
  const send: { offer: unknown; hash: string }[] = [];
  let skipped = 0;
  for (const offer of offers) {
    const hash = contentHash(offer);
    if (seen.has(hash) || (!options.force && accepted.has(hash))) {
      skipped += 1;
      continue;
    }
    seen.add(hash);
    send.push({ offer, hash });
  }
  return {
    batches: chunksOf(send, options.batchSize).map((chunk) => ({ offers: chunk.map((item) => item.offer), hashes: chunk.map((item) => item.hash) })),
    skipped,
  };
}
