import type { ActivationStateStore, RefusedOrder } from "./activation-state-store.js";
import type { OrderSink } from "./order-sink.js";

export interface ResendReport {
  readonly connection: string;
  readonly delivered: readonly string[];
  /** Refused again: still set aside, with the new reason. */
  readonly refusedAgain: readonly { readonly orderId: string; readonly reason: string }[];
  /** Dropped without sending: a newer version of the order was delivered since. */
  readonly superseded: readonly string[];
  /** Asked for but not set aside. */
  readonly notFound: readonly string[];
}

/**
 * Sends set-aside orders of a connection again (all of them, or those named), each as the
 * version that was refused, under the same delivery id. Delivered ones leave the list; refused
 * ones stay with the new reason; a failure worth another try rejects (the rest stay listed).
 */
export async function resendRefused(
  deps: { readonly state: ActivationStateStore; readonly sink: OrderSink; readonly now?: () => Date },
  connection: string,
  orderIds: readonly string[] | undefined,
  options: { readonly signal?: AbortSignal } = {},
): Promise<ResendReport> {
  const now = deps.now ?? (() => new Date());
  const listed = await deps.state.refusedOrders(connection);
  const wanted = orderIds === undefined ? listed : listed.filter((entry) => orderIds.includes(entry.order_id));
  const notFound = orderIds === undefined ? [] : orderIds.filter((id) => !listed.some((entry) => entry.order_id === id));
  const last = await deps.state.lastDelivered(
    connection,
    wanted.map((entry) => entry.order_id),
  );
  const superseded = wanted.filter((entry) => (last.get(entry.order_id)?.version ?? 0) > entry.version);
  await deps.state.clearRefused(
    connection,
    superseded.map((entry) => entry.order_id),
  );
  const toSend = wanted.filter((entry) => !superseded.includes(entry));
  const byDeliveryId = new Map<string, RefusedOrder>(toSend.map((entry) => [entry.delivery_id, entry]));
  const delivered: string[] = [];
  const refusedAgain: { orderId: string; reason: string }[] = [];

  await deps.sink.deliver(
    connection,
    toSend.map((entry) => ({
      id: entry.order_id,
      hash: entry.hash,
      version: entry.version,
      deliveryId: entry.delivery_id,
      order: entry.order,
    })),
    {
      signal: options.signal,
      async onOutcome(outcome) {
        if (outcome.kind === "delivered") {
          await deps.state.clearRefused(
            connection,
            outcome.orders.map((order) => order.id),
          );
          delivered.push(...outcome.orders.map((order) => order.id));
          return;
        }
        const entry = byDeliveryId.get(outcome.order.deliveryId);
        if (entry) await deps.state.setAside({ ...entry, status: outcome.status, reason: outcome.reason, refused_at: now().toISOString() });
        refusedAgain.push({ orderId: outcome.order.id, reason: outcome.reason });
      },
    },
  );
  return { connection, delivered, refusedAgain, superseded: superseded.map((entry) => entry.order_id), notFound };
}
