/**
 * What pim-sync remembers per channel connection, so repeated runs send or emit only what is
 * new, bounded by age (`orders.retention_days`, `offers.retention_days`):
 * - per order id: the content hash and version number of the version last delivered (or set
 *   aside), and when a pull last listed it;
 * - per offer key (`offers.key`): the content hash the API last accepted, and when;
 * - the orders the sink refused for good, set aside until they are re-sent or expire.
 * Reads take the ids a pull or put needs, never the whole state.
 */
export interface LastDelivered {
  readonly hash: string;
  /** 1 for the first version delivered, then 2, 3... */
  readonly version: number;
}

export interface DeliveredVersion extends LastDelivered {
  readonly id: string;
}

export interface AcceptedOffer {
  /** The offer's `offers.key` value, as text. */
  readonly key: string;
  readonly hash: string;
}

/** An order the sink refused for good (4xx), kept with its reason until re-sent or expired. */
export interface RefusedOrder {
  readonly connection: string;
  readonly order_id: string;
  readonly delivery_id: string;
  readonly version: number;
  readonly hash: string;
  /** The sink's HTTP status. */
  readonly status: number;
  readonly reason: string;
  /** ISO time of the last refusal. */
  readonly refused_at: string;
  /** The order as the API sent it. */
  readonly order: unknown;
}

export interface ActivationStateStore {
  /** The version last delivered for each of these ids that has one (never delivered, or expired: absent). */
  lastDelivered(connection: string, ids: readonly string[]): Promise<Map<string, LastDelivered>>;
  /** Records delivered (or set-aside) versions; their retention starts now. */
  recordDelivered(connection: string, orders: readonly DeliveredVersion[]): Promise<void>;
  /** A pull listed these ids: their retention starts again; orders not listed for longer than the retention are forgotten. */
  markListed(connection: string, ids: readonly string[]): Promise<void>;
  /** The content hash last accepted for each of these offer keys that has one. */
  acceptedOffers(connection: string, keys: readonly string[]): Promise<Map<string, string>>;
  /** Records accepted offers (one entry per key, the newest content); entries older than the retention are forgotten. */
  recordAcceptedOffers(connection: string, offers: readonly AcceptedOffer[]): Promise<void>;
  setAside(order: RefusedOrder): Promise<void>;
  /** Set-aside orders, oldest refusal first; of one connection when given. */
  refusedOrders(connection?: string): Promise<RefusedOrder[]>;
  /** Drops set-aside entries (re-sent, or a newer version was delivered). */
  clearRefused(connection: string, ids: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** How long entries are kept, in milliseconds. */
export interface ActivationRetention {
  readonly ordersMs: number;
  readonly offersMs: number;
}

export const DAY_MS = 86_400_000;
