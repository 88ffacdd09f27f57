import { orderIdOf } from "./activation-assumptions.js";
import { contentHash } from "./canonical-json.js";

export interface OrderToEmit {
  readonly id: string;
  readonly hash: string;
  /** The API's order object, unchanged. */
  readonly order: unknown;
}

export interface OrderSelection {
  /** New or changed orders (every order with `all`), in the order the API listed them. */
  readonly emit: readonly OrderToEmit[];
  readonly unchanged: number;
  /** Where each order without a usable `id` was: page and position, both from 1. */
  readonly withoutId: readonly string[];
}

/**
 * Change detection, pure: an order is emitted when its id was never emitted or its content hash
 * differs from the last one emitted for that id. An id listed twice in one pull (a page boundary
 * that moved) is emitted once, with its last content.
 */
export function selectOrdersToEmit(
  pages: readonly (readonly unknown[])[],
  lastEmitted: ReadonlyMap<string, string>,
  options: { readonly all: boolean },
): OrderSelection {
  const latest = new Map<string, OrderToEmit>();
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
  const emit: OrderToEmit[] = [];
  let unchanged = 0;
  for (const candidate of latest.values()) {
    if (options.all || lastEmitted.get(candidate.id) !== candidate.hash) emit.push(candidate);
    else unchanged += 1;
  }
  return { emit, unchanged, withoutId };
}
