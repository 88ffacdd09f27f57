/**
 * The simulator's sample: three channel connections (one without orders) and orders shaped as in
 * Akeneo's extension-sdk samples (reference §5.3), enough for several pages at the default page size.
 */
export interface SimChannelConnection {
  readonly id: string;
  readonly label: string;
  readonly syndicationChannelCode: string;
}

export type SimOrder = Record<string, unknown>;

export const SAMPLE_CONNECTIONS: readonly SimChannelConnection[] = [
  { id: "amazon-fr", label: "Amazon France", syndicationChannelCode: "amazon_seller_central" },
  { id: "mirakl-de", label: "Mirakl Germany", syndicationChannelCode: "mirakl" },
  { id: "ebay-uk", label: "eBay UK", syndicationChannelCode: "ebay" },
];

const STATUSES = ["WAITING_FOR_SHIPMENT", "SHIPPED", "PARTIALLY_SHIPPED", "CANCELED", "REFUSED"] as const;

export function sampleOrder(connection: string, n: number): SimOrder {
  const status = STATUSES[n % STATUSES.length] ?? "WAITING_FOR_SHIPMENT";
  return {
    id: `${connection}-order-${n}`,
    data: {
      originalId: `MP-${1000 + n}`,
      status: { code: status, originalCode: status.toLowerCase() },
      purchaseDate: new Date(Date.UTC(2026, 0, 1 + n, 10, 0, 0)).toISOString(),
      price: { amount: 19.9 + n, currency: "EUR", taxAmount: 3.32 },
      buyer: { name: `Buyer ${n}`, email: `buyer${n}@example.com`, phone: "+33100000000" },
      fulfillmentCode: "MERCHANT",
    },
    items: [
      {
        id: `item-${n}-1`,
        label: `Product ${n}`,
        productSKU: `SKU-${n}`,
        quantityOrdered: 1,
        quantityShipped: 0,
        price: { amount: 19.9 + n, currency: "EUR" },
        status: { code: status },
      },
    ],
  };
}

/** amazon-fr: 7 orders, mirakl-de: 4, ebay-uk: none. */
export function sampleOrders(): Record<string, SimOrder[]> {
  const range = (count: number, connection: string): SimOrder[] => Array.from({ length: count }, (_, i) => sampleOrder(connection, i + 1));
  return { "amazon-fr": range(7, "amazon-fr"), "mirakl-de": range(4, "mirakl-de"), "ebay-uk": [] };
}
