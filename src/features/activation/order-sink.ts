import type { OrderToEmit } from "./select-orders-to-emit.js";

/** What happened to orders handed to a sink, told as it happens so the pull records it at once. */
export type DeliveryOutcome =
  | { readonly kind: "delivered"; readonly orders: readonly OrderToEmit[] }
  /** The receiver refused this order for good (a 4xx that asking again will not change). */
  | { readonly kind: "refused"; readonly order: OrderToEmit; readonly status: number; readonly reason: string };

/**
 * Where pulled orders go: a stream (CLI), an NDJSON file per connection and UTC day, or a
 * webhook. `deliver` hands the orders over in order and reports each outcome through
 * `onOutcome` (awaited) once the orders are durably handed over; it rejects on the first failure
 * worth another try (what was reported before it stays reported).
 */
export interface OrderSink {
  deliver(
    connection: string,
    orders: readonly OrderToEmit[],
    options: { readonly signal?: AbortSignal | undefined; onOutcome(outcome: DeliveryOutcome): Promise<void> },
  ): Promise<void>;
}

/**
 * What every sink hands over for one order: the delivery id (the same on a re-delivery of this
 * version, so a receiver can drop duplicates), where it comes from, and the API's order object
 * unchanged under `order`. An envelope rather than a field added to the order, so no field of
 * the API's object can ever clash with it.
 */
export function deliveryRecord(connection: string, order: OrderToEmit): Record<string, unknown> {
  return { delivery_id: order.deliveryId, connection, order_id: order.id, version: order.version, order: order.order };
}

/** One NDJSON line per order: its delivery record. */
export function ndjsonLines(connection: string, orders: readonly OrderToEmit[]): string {
  return orders.map((order) => `${JSON.stringify(deliveryRecord(connection, order))}\n`).join("");
}
