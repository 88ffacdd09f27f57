/**
 * What pim-sync remembers per channel connection, so repeated runs send or emit only what is
 * new: the content hash of the last emitted version of each order, and the hashes of offers the
 * API accepted. Written only after the lines were written / the API answered 2xx.
 */
export interface ActivationStateStore {
  /** order id → content hash of the version last emitted. */
  emittedOrders(connection: string): Promise<Map<string, string>>;
  recordEmitted(connection: string, orders: readonly { readonly id: string; readonly hash: string }[]): Promise<void>;
  /** Canonical-JSON hashes of the offers this connection accepted. */
  acceptedOffers(connection: string): Promise<Set<string>>;
  recordAcceptedOffers(connection: string, hashes: readonly string[]): Promise<void>;
  close(): Promise<void>;
}
