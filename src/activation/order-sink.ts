import type { OrderToEmit } from "./select-orders-to-emit.js";

/**
 * Where pulled orders go: a stream (CLI), an NDJSON file per connection and UTC day, or a
 * webhook. `deliver` resolves only once every order is durably handed over; the pull state is
 * advanced after that, never before.
 */
export interface OrderSink {
  deliver(connection: string, orders: readonly OrderToEmit[], signal?: AbortSignal): Promise<void>;
}

/** One NDJSON line per order: the API's order object, unchanged. */
export function ndjsonLines(orders: readonly OrderToEmit[]): string {
  return orders.map((order) => `${JSON.stringify(order.order)}\n`).join("");
}
