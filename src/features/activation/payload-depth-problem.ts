import { jsonPathText, nestedBeyond } from "../../core/json/nested-beyond.js";
import { MAX_PAYLOAD_DEPTH } from "../../upstreams/activation/activation-assumptions.js";

/**
 * Why an offer or a shipment is too deep to take (`MAX_PAYLOAD_DEPTH`), naming where inside it,
 * or null. Walks without recursion, so it is safe on any input.
 */
export function payloadDepthProblem(payload: unknown): string | null {
  const path = nestedBeyond(payload, MAX_PAYLOAD_DEPTH);
  if (path === null) return null;
  return `nests deeper than ${MAX_PAYLOAD_DEPTH} levels of objects and arrays, the most an offer or shipment may (at ${jsonPathText(path)})`;
}
