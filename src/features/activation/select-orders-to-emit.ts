import { orderIdOf } from "../../upstreams/activation/activation-assumptions.js";
import type { LastDelivered } from "./activation-state-store.js";
import { contentHash } from "../../core/json/canonical-json.js";
import { deliveryIdOf } from "./delivery-id.js";

export interface OrderToEmit {
  readonly id: string;
  readonly hash: string;
  /** The version number this content is delivered as (see delivery-id.ts). */
  readonly version: number;
  readonly deliveryId: string;
  /** The API's order object, unchanged. */
  readonly order: unknown;
}

export interface ListedOrder {
  readonly id: string;
  readonly hash: string;
  readonly order: unknown;
}

export interface ListedOrders {
  /** One entry per id, in the order of each id's last sighting. */
  readonly orders: readonly ListedOrder[];
  /** Where each order without a usable `id` was: page and position, both from 1. */
  readonly withoutId: readonly string[];
}

export interface OrderSelection {
  /** New or changed orders (every order with `all`), in the order the API listed them. */
  readonly emit: readonly OrderToEmit[];
  readonly unchanged: number;
}

/** The orders of a pull by id. An id listed twice in one pull (a page boundary that moved) counts once, with its last content. */
export function listOrders(pages: readonly (readonly unknown[])[]): ListedOrders {
  const latest = new Map<string, ListedOrder>();
  const withoutId: string[] = [];
  pages.forEach((orders, pageIndex) => {
    orders.forEach((order, position) => {
      const id = orderIdOf(order);
      if (id === null) {
        withoutId.push(`page ${pageIndex + 1}, order ${position + 1}`);
        return;
      }
      // Delete first so the map's order is that of the last sighting.
      latest.delete(id);
      latest.set(id, { id, hash: contentHash(order), order });
    });
  });
  return { orders: [...latest.values()], withoutId };
}

/**
 * Change detection, pure: an order is emitted when its id has no delivered version or its
 * content hash differs from the last one delivered. A changed order is the next version; an
 * unchanged one (emitted with `all`) keeps the version, and so its delivery id.
 */
export function selectOrdersToEmit(
  connection: string,
  listed: readonly ListedOrder[],
  lastDelivered: ReadonlyMap<string, LastDelivered>,
  options: { readonly all: boolean },
): OrderSelection {
  const emit: OrderToEmit[] = [];
  let unchanged = 0;
  for (const candidate of listed) {
    const last = lastDelivered.get(candidate.id);
    const same = last !== undefined && last.hash === candidate.hash;
    if (same && !options.all) {
      unchanged += 1;
      continue;
    }
    const version = same ? last.version : (last?.version ?? 0) + 1;
    emit.push({ ...candidate, version, deliveryId: deliveryIdOf(connection, candidate.id, version, candidate.hash) });
  }
  return { emit, unchanged };
}
