import type { Attributes, AttributeValue, Context } from "@opentelemetry/api";
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace";
import type { Redactor } from "../secrets/redactor.js";

/**
 * Hands the next processor (the exporting one) a copy of each ended span with every configured
 * secret taken out of its name, attributes, events, links and status, in every spelling the
 * Redactor knows. The instrumentations record URLs (a query may carry a token), request paths
 * and exception messages; whatever they record, no secret leaves the process.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  private readonly next: SpanProcessor;
  private readonly redactor: () => Redactor;

  /** `redactor` is read at each span's end: the config's secrets are known only once it is loaded. */
  constructor(next: SpanProcessor, redactor: () => Redactor) {
    this.next = next;
    this.redactor = redactor;
  }

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    const redactor = this.redactor();
    this.next.onEnd(redactor.empty ? span : redactedSpan(span, redactor));
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

function redactedSpan(span: ReadableSpan, redactor: Redactor): ReadableSpan {
  const redact = (text: string): string => redactor.redact(text);
  return {
    name: redact(span.name),
    kind: span.kind,
    spanContext: () => span.spanContext(),
    ...(span.parentSpanContext === undefined ? {} : { parentSpanContext: span.parentSpanContext }),
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status.message === undefined ? span.status : { ...span.status, message: redact(span.status.message) },
    attributes: redactedAttributes(span.attributes, redact),
    links: span.links.map((link) =>
      link.attributes === undefined ? link : { ...link, attributes: redactedAttributes(link.attributes, redact) },
    ),
    events: span.events.map((event) => ({
      ...event,
      name: redact(event.name),
      ...(event.attributes === undefined ? {} : { attributes: redactedAttributes(event.attributes, redact) }),
    })),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

function redactedAttributes(attributes: Attributes, redact: (text: string) => string): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) out[redact(key)] = redactedValue(value, redact);
  return out;
}

function redactedValue(value: AttributeValue | undefined, redact: (text: string) => string): AttributeValue | undefined {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value) && value.some((item) => typeof item === "string"))
    return (value as (string | null | undefined)[]).map((item) => (typeof item === "string" ? redact(item) : item));
  return value;
}
