import type { ActivationClient } from "../../upstreams/activation/activation-client.js";
import type { ActivationStateStore } from "./activation-state-store.js";
import type { DeliveryOutcome, OrderSink } from "./order-sink.js";
import { listOrders, selectOrdersToEmit } from "./select-orders-to-emit.js";

export interface PullReport {
  readonly connection: string;
  readonly pages: number;
  /** Orders the API listed (with an id). */
  readonly listed: number;
  readonly emitted: number;
  readonly unchanged: number;
  /** Orders the sink refused for good: set aside (see `activation refused`), the pull went on. */
  readonly refused: readonly { readonly orderId: string; readonly deliveryId: string; readonly status: number; readonly reason: string }[];
  /** Orders without a usable `id`: reported, never emitted. */
  readonly withoutId: readonly string[];
}

/**
 * One pull of a connection: read every page first (a failed read emits nothing), pick the new
 * and changed orders, and hand them to the sink in order. Each order is recorded as soon as the
 * sink reports it delivered (or refused for good: then it is also set aside with its reason), so
 * a failure part way leaves the ones before it recorded and the retry sends only the rest.
 * Delivery is at least once: a crash between the hand-over and the record hands the same
 * versions over again, under the same delivery ids. `all` emits every order and leaves the state alone.
 */
export async function pullOrders(
  deps: { readonly client: ActivationClient; readonly state: ActivationStateStore; readonly sink: OrderSink; readonly now?: () => Date },
  connection: string,
  options: { readonly all: boolean; readonly signal?: AbortSignal },
): Promise<PullReport> {
  const now = deps.now ?? (() => new Date());
  const pages = await deps.client.readOrderPages(connection, options.signal);
  const listed = listOrders(pages);
  const ids = listed.orders.map((order) => order.id);
  const last = await deps.state.lastDelivered(connection, ids);
  const selection = selectOrdersToEmit(connection, listed.orders, last, { all: options.all });
  // Only ids that have a set-aside entry need clearing when delivered: read them once.
  const setAside = new Set(options.all ? [] : (await deps.state.refusedOrders(connection)).map((entry) => entry.order_id));
  const refused: { orderId: string; deliveryId: string; status: number; reason: string }[] = [];
  let emitted = 0;

  async function record(outcome: DeliveryOutcome): Promise<void> {
    if (outcome.kind === "delivered") {
      emitted += outcome.orders.length;
      if (options.all) return;
      await deps.state.recordDelivered(connection, outcome.orders);
      // A newer version got through: the older one set aside is no longer worth re-sending.
      await deps.state.clearRefused(
        connection,
        outcome.orders.filter((order) => setAside.delete(order.id)).map((order) => order.id),
      );
      return;
    }
    const { order } = outcome;
    refused.push({ orderId: order.id, deliveryId: order.deliveryId, status: outcome.status, reason: outcome.reason });
    if (options.all) return;
    await deps.state.setAside({
      connection,
      order_id: order.id,
      delivery_id: order.deliveryId,
      version: order.version,
      hash: order.hash,
      status: outcome.status,
      reason: outcome.reason,
      refused_at: now().toISOString(),
      order: order.order,
    });
    await deps.state.recordDelivered(connection, [order]);
  }

  await deps.sink.deliver(connection, selection.emit, { signal: options.signal, onOutcome: record });
  if (!options.all) await deps.state.markListed(connection, ids);
  return {
    connection,
    pages: pages.length,
    listed: ids.length,
    emitted,
    unchanged: selection.unchanged,
    refused,
    withoutId: listed.withoutId,
  };
}
