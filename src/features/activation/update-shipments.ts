import { HttpError } from "../../infra/http/http-error.js";
import type { ActivationClient } from "../../upstreams/activation/activation-client.js";
import { messageOf } from "../../core/errors/message-of.js";

export interface ShipmentsReport {
  readonly connection: string;
  readonly accepted: number;
  /** Shipments the API refused (4xx), by position in the input (from 1), with its message. */
  readonly refused: readonly { readonly index: number; readonly reason: string }[];
  /** Not tried because an upstream failure (5xx, timeouts after the retries) stopped the run. */
  readonly notSent: number;
  readonly failure: string | null;
}

/**
 * One PUT per shipment, unchanged. A refusal (4xx other than 408/429) is recorded and the next
 * shipment goes on; an upstream failure (a redirect and an answer of the wrong shape among
 * them) stops the run (the next ones would fail the same way).
 */
export async function updateShipments(
  deps: { readonly client: ActivationClient },
  connection: string,
  shipments: readonly unknown[],
  options: { readonly signal?: AbortSignal } = {},
): Promise<{ readonly report: ShipmentsReport; readonly error: unknown }> {
  let accepted = 0;
  const refused: { index: number; reason: string }[] = [];
  for (const [index, shipment] of shipments.entries()) {
    try {
      await deps.client.updateShipment(connection, shipment, options.signal);
      accepted += 1;
    } catch (error) {
      if (
        error instanceof HttpError &&
        error.code === "HTTP_STATUS" &&
        error.status !== undefined &&
        !error.transient &&
        error.status !== 401 &&
        error.status !== 403
      ) {
        refused.push({ index: index + 1, reason: error.message });
        continue;
      }
      const report = { connection, accepted, refused, notSent: shipments.length - index, failure: messageOf(error) };
      return { report, error };
    }
  }
  return { report: { connection, accepted, refused, notSent: 0, failure: null }, error: null };
}
