import { z } from "zod";
import type { AttributeValue, ReceivedSpan } from "./otlp-span.js";

interface JsonAnyValue {
  stringValue?: string | undefined;
  boolValue?: boolean | undefined;
  intValue?: number | string | undefined;
  doubleValue?: number | undefined;
  arrayValue?: { values?: JsonAnyValue[] | undefined } | undefined;
  kvlistValue?: { values?: JsonKeyValue[] | undefined } | undefined;
  bytesValue?: string | undefined;
}
interface JsonKeyValue {
  key: string;
  value?: JsonAnyValue | undefined;
}

const anyValue: z.ZodType<JsonAnyValue> = z.lazy(() =>
  z.object({
    stringValue: z.string().optional(),
    boolValue: z.boolean().optional(),
    intValue: z.union([z.number(), z.string()]).optional(),
    doubleValue: z.number().optional(),
    arrayValue: z.object({ values: z.array(anyValue).optional() }).optional(),
    kvlistValue: z.object({ values: z.array(keyValue).optional() }).optional(),
    bytesValue: z.string().optional(),
  }),
);
const keyValue: z.ZodType<JsonKeyValue> = z.lazy(() => z.object({ key: z.string(), value: anyValue.optional() }));
const attributes = z.array(keyValue).default([]);

/** OTLP/JSON's ExportTraceServiceRequest, as far as the tests read it (ids in hex, per the spec). */
const traceRequestSchema = z.object({
  resourceSpans: z.array(
    z.object({
      resource: z.object({ attributes }).optional(),
      scopeSpans: z.array(
        z.object({
          scope: z.object({ name: z.string() }).optional(),
          spans: z.array(
            z.object({
              traceId: z.string().regex(/^[0-9a-f]{32}$/, "hex trace id"),
              spanId: z.string().regex(/^[0-9a-f]{16}$/, "hex span id"),
              parentSpanId: z.string().optional(),
              name: z.string(),
              kind: z.number().int(),
              attributes,
              events: z.array(z.object({ name: z.string(), attributes })).default([]),
              status: z.object({ message: z.string().optional() }).optional(),
            }),
          ),
        }),
      ),
    }),
  ),
});

export function decodeJsonTraceRequest(text: string): ReceivedSpan[] {
  const request = traceRequestSchema.parse(JSON.parse(text));
  return request.resourceSpans.flatMap((resourceSpans) => {
    const resource = keyValues(resourceSpans.resource?.attributes ?? []);
    return resourceSpans.scopeSpans.flatMap((scopeSpans) =>
      scopeSpans.spans.map((span): ReceivedSpan => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? "",
        name: span.name,
        kind: span.kind,
        scope: scopeSpans.scope?.name ?? "",
        attributes: keyValues(span.attributes),
        events: span.events.map((event) => ({ name: event.name, attributes: keyValues(event.attributes) })),
        statusMessage: span.status?.message ?? "",
        resource,
      })),
    );
  });
}

function keyValues(list: readonly JsonKeyValue[]): Record<string, AttributeValue> {
  return Object.fromEntries(list.map((kv) => [kv.key, kv.value === undefined ? null : valueOf(kv.value)]));
}

function valueOf(value: JsonAnyValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.kvlistValue !== undefined) return keyValues(value.kvlistValue.values ?? []);
  return value.bytesValue ?? null;
}
