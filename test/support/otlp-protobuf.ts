import type { AttributeValue, ReceivedSpan } from "./otlp-span.js";

/**
 * Decodes an OTLP ExportTraceServiceRequest from protobuf, written from the message definitions
 * (opentelemetry-proto: trace/v1, common/v1, resource/v1) and the protobuf wire format, with no
 * code shared with the exporter under test. Only the fields the tests read are kept; the rest
 * are skipped by their wire type.
 */
export function decodeTraceRequest(bytes: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of fieldsOf(bytes).filter((f) => f.number === 1)) {
    const parts = fieldsOf(bytesOf(resourceSpans));
    const resourceField = parts.find((f) => f.number === 1);
    const resource = resourceField ? keyValues(fieldsOf(bytesOf(resourceField)).filter((f) => f.number === 1)) : {};
    for (const scopeSpans of parts.filter((f) => f.number === 2)) {
      const scopeParts = fieldsOf(bytesOf(scopeSpans));
      const scopeField = scopeParts.find((f) => f.number === 1);
      const scope = scopeField ? text(fieldsOf(bytesOf(scopeField)).find((f) => f.number === 1)) : "";
      for (const span of scopeParts.filter((f) => f.number === 2)) spans.push(decodeSpan(fieldsOf(bytesOf(span)), scope, resource));
    }
  }
  return spans;
}

function decodeSpan(fields: readonly Field[], scope: string, resource: Record<string, AttributeValue>): ReceivedSpan {
  const one = (n: number): Field | undefined => fields.find((f) => f.number === n);
  const status = one(15);
  return {
    traceId: hex(one(1)),
    spanId: hex(one(2)),
    parentSpanId: hex(one(4)),
    name: text(one(5)),
    kind: Number(one(6)?.varint ?? 0n),
    scope,
    attributes: keyValues(fields.filter((f) => f.number === 9)),
    events: fields
      .filter((f) => f.number === 11)
      .map((event) => {
        const parts = fieldsOf(bytesOf(event));
        return { name: text(parts.find((f) => f.number === 2)), attributes: keyValues(parts.filter((f) => f.number === 3)) };
      }),
    statusMessage: status ? text(fieldsOf(bytesOf(status)).find((f) => f.number === 2)) : "",
    resource,
  };
}

function keyValues(fields: readonly Field[]): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const field of fields) {
    const parts = fieldsOf(bytesOf(field));
    const value = parts.find((f) => f.number === 2);
    out[text(parts.find((f) => f.number === 1))] = value ? anyValue(fieldsOf(bytesOf(value))) : null;
  }
  return out;
}

/** AnyValue: 1 string, 2 bool, 3 int64, 4 double, 5 array, 6 key-value list, 7 bytes. */
function anyValue(fields: readonly Field[]): AttributeValue {
  const field = fields[0];
  if (!field) return null;
  switch (field.number) {
    case 1:
      return text(field);
    case 2:
      return (field.varint ?? 0n) !== 0n;
    case 3:
      return Number(BigInt.asIntN(64, field.varint ?? 0n));
    case 4:
      return Buffer.from(bytesOf(field)).readDoubleLE(0);
    case 5:
      return fieldsOf(bytesOf(field))
        .filter((f) => f.number === 1)
        .map((item) => anyValue(fieldsOf(bytesOf(item))));
    case 6:
      return keyValues(fieldsOf(bytesOf(field)).filter((f) => f.number === 1));
    default:
      return Buffer.from(bytesOf(field)).toString("base64");
  }
}

interface Field {
  readonly number: number;
  /** Wire type 0. */
  readonly varint?: bigint;
  /** Wire types 1, 2 and 5: the field's bytes. */
  readonly bytes?: Uint8Array;
}

function fieldsOf(bytes: Uint8Array): Field[] {
  const fields: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = bytes[at];
      if (byte === undefined) throw new Error("truncated varint");
      at += 1;
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
  };
  const take = (length: number): Uint8Array => {
    if (at + length > bytes.length) throw new Error("truncated field");
    const slice = bytes.subarray(at, at + length);
    at += length;
    return slice;
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const number = key >>> 3;
    const wireType = key & 7;
    if (wireType === 0) fields.push({ number, varint: varint() });
    else if (wireType === 1) fields.push({ number, bytes: take(8) });
    else if (wireType === 2) fields.push({ number, bytes: take(Number(varint())) });
    else if (wireType === 5) fields.push({ number, bytes: take(4) });
    else throw new Error(`unsupported wire type ${wireType}`);
  }
  return fields;
}

const bytesOf = (field: Field): Uint8Array => field.bytes ?? new Uint8Array();
const text = (field: Field | undefined): string => (field ? Buffer.from(bytesOf(field)).toString("utf8") : "");
const hex = (field: Field | undefined): string => (field ? Buffer.from(bytesOf(field)).toString("hex") : "");
