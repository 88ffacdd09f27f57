/** A span as the OTLP receiver got it, the same whichever encoding carried it. */
export interface ReceivedSpan {
  /** Lower-case hex, as OTLP/JSON writes them. */
  readonly traceId: string;
  readonly spanId: string;
  /** "" for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  /** The instrumentation scope (the library that made the span). */
  readonly scope: string;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  readonly events: readonly { readonly name: string; readonly attributes: Readonly<Record<string, AttributeValue>> }[];
  readonly statusMessage: string;
  /** The attributes of the resource it was sent under (service.name...). */
  readonly resource: Readonly<Record<string, AttributeValue>>;
}

export type AttributeValue = string | number | boolean | null | readonly AttributeValue[] | { readonly [key: string]: AttributeValue };

export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;
