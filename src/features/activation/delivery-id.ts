import { createHash } from "node:crypto";
import { canonicalJson } from "../../core/json/canonical-json.js";

/**
 * The delivery id of one version of one order: the same for every re-delivery of that version
 * (a crash between the hand-over and the state save, a job retry, a re-send of a refused order),
 * different for every other version. `version` counts the versions delivered for the order, so
 * an order that returns to an earlier content (status A, B, then A again) gets a new id; the
 * content hash is part of it too, so a version whose content changed between a crash and the
 * re-pull is not mistaken for the one delivered before the crash. 128 bits of a SHA-256, hex:
 * header-safe, so it is also the webhook's Idempotency-Key.
 */
export function deliveryIdOf(connection: string, orderId: string, version: number, contentHash: string): string {
  return createHash("sha256")
    .update(canonicalJson(["pim-sync-delivery", connection, orderId, version, contentHash]))
    .digest("hex")
    .slice(0, 32);
}
