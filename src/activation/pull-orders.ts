import type { ActivationClient } from "./activation-client.js";
import type { ActivationStateStore } from "./activation-state-store.js";
import type { OrderSink } from "./order-sink.js";
import { selectOrdersToEmit } from "./select-orders-to-emit.js";

export interface PullReport {
  readonly connection: string;
  readonly pages: number;
  readonly emitted: number;
  readonly unchanged: number;
  /** Orders without a usable `id`: reported, never emitted. */
  readonly withoutId: readonly string[];
}

/**
 * One pull of a connection: read every page first (a failed read emits nothing), pick the new
 * and changed orders, deliver them, and only then advance the state. `all` emits every order
 * and leaves the state alone.
 */
export async function pullOrders(
  deps: { readonly client: ActivationClient; readonly state: ActivationStateStore; readonly sink: OrderSink },
  connection: string,
  options: { readonly all: boolean; readonly signal?: AbortSignal },
): Promise<PullReport> {
  const pages = await deps.client.readOrderPages(connection, options.signal);
  const last = options.all ? new Map<string, string>() : await deps.state.emittedOrders(connection);
  const selection = selectOrdersToEmit(pages, last, { all: options.all });
  await deps.sink.deliver(connection, selection.emit, options.signal);
  if (!options.all) await deps.state.recordEmitted(connection, selection.emit.map(({ id, hash }) => ({ id, hash })));
  return { connection, pages: pages.length, emitted: selection.emit.length, unchanged: selection.unchanged, withoutId: selection.withoutId };
}
