import { SpanKind, type Context } from "@opentelemetry/api";
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace";

/** The instrumentation scope bullmq-otel's tracer reports its spans under. */
const BULLMQ_SCOPE = "bullmq";

/**
 * Drops BullMQ's housekeeping: the internal spans it makes with no request or job behind them
 * (stalled-job checks every `stalled_interval_ms`, lock renewals, closing). Each would be a
 * trace of its own, several a minute per queue, burying the traces of requests and jobs. The
 * spans that carry work stay: `add` (the enqueue, under its request), `process` (the job, under
 * the enqueue, or a trace of its own for a scheduled job) and what runs inside them.
 */
export class QueueHousekeepingFilter implements SpanProcessor {
  private readonly next: SpanProcessor;

  constructor(next: SpanProcessor) {
    this.next = next;
  }

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    const housekeeping =
      span.instrumentationScope.name === BULLMQ_SCOPE && span.kind === SpanKind.INTERNAL && span.parentSpanContext === undefined;
    if (!housekeeping) this.next.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}
