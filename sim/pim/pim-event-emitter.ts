/**
 * The PIM simulator's side of the Akeneo Event Platform: after each change its write endpoints
 * make (and each change a test announces with `emit`), a CloudEvent signed like the platform's
 * (hex HMAC-SHA256 of the raw body in X-AKENEO-SIGNATURE-PRIMARY) is posted to the configured
 * URL. For tests of an at-least-once, unordered delivery: duplicates, reordering (a batch held
 * and sent shuffled), delays, and a mode that drops events as a suspended subscription does.
 */
import { createHmac, randomUUID } from "node:crypto";

export interface PimEventDelivery {
  /** Where events are posted (the receiver's `/v1/pim-events/<project>`). */
  readonly url: string;
  /** Signs X-AKENEO-SIGNATURE-PRIMARY. */
  readonly secret: string;
  /** Signs X-AKENEO-SIGNATURE-SECONDARY when set (a rotation). */
  readonly secondarySecret?: string;
  /** The tenant id every event carries as `subject`. */
  readonly subject?: string;
  /** Each event is sent this many times more (same id, same correlation id). */
  readonly duplicates?: number;
  /** Events are held until `flush()` (or this many are held), then sent in a shuffled order. */
  readonly reorderBatch?: number;
  /** Each post waits this long first. */
  readonly delayMs?: number;
  /** Events are counted as sent and never posted: the platform's lost events. */
  readonly drop?: boolean;
  /** Called as each post is answered, with the body sent: when each event was delivered (the benchmark's clock). */
  readonly onAnswered?: (answer: { readonly body: string; readonly status: number; readonly at: number }) => void;
  /** Called when a post got no answer (refused connection, timeout), with the body and why. */
  readonly onFailed?: (failure: { readonly body: string; readonly reason: string }) => void;
}

export interface PimEventEmitter {
  /** Starts (or changes, or with null stops) the delivery. */
  configure(delivery: PimEventDelivery | null): void;
  /** Announces one change: `type` without the `com.akeneo.pim.v1.` prefix (`attribute-option.deleted`). */
  emit(type: string, data: Readonly<Record<string, unknown>>): void;
  /** Sends the events held for reordering. */
  flush(): void;
  /** While on, every event is counted as sent and dropped, whatever the delivery says: a suspended subscription's. */
  lose(on: boolean): void;
  /** Resolves once every event emitted so far has been posted (or dropped). */
  idle(): Promise<void>;
  /** Events emitted, posts answered (by status), posts that failed to connect. */
  stats(): {
    readonly emitted: number;
    readonly dropped: number;
    readonly answered: Readonly<Record<string, number>>;
    readonly failed: number;
  };
}

interface Prepared {
  readonly body: string;
  readonly correlationId: string;
}

const TYPE_PREFIX = "com.akeneo.pim.v1.";

export function createPimEventEmitter(): PimEventEmitter {
  let delivery: PimEventDelivery | null = null;
  let held: Prepared[] = [];
  const inFlight = new Set<Promise<void>>();
  let emitted = 0;
  let dropped = 0;
  let failed = 0;
  let losing = false;
  const answered: Record<string, number> = {};

  const sign = (body: string, secret: string): string => createHmac("sha256", secret).update(body).digest("hex");

  function post(event: Prepared, to: PimEventDelivery): void {
    const sending = (async () => {
      if (to.delayMs !== undefined && to.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, to.delayMs));
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "x-akeneo-signature-algorithm": "HmacSHA256",
        "x-akeneo-signature-primary": sign(event.body, to.secret),
        "x-correlation-id": event.correlationId,
      };
      if (to.secondarySecret !== undefined) headers["x-akeneo-signature-secondary"] = sign(event.body, to.secondarySecret);
      try {
        const response = await fetch(to.url, { method: "POST", headers, body: event.body, signal: AbortSignal.timeout(3_000) });
        await response.arrayBuffer();
        answered[response.status] = (answered[response.status] ?? 0) + 1;
        to.onAnswered?.({ body: event.body, status: response.status, at: Date.now() });
      } catch (error) {
        failed += 1;
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
        to.onFailed?.({ body: event.body, reason: cause instanceof Error ? cause.message : String(cause) });
      }
    })();
    inFlight.add(sending);
    void sending.finally(() => inFlight.delete(sending));
  }

  function send(events: readonly Prepared[], to: PimEventDelivery): void {
    for (const event of events) for (let copy = 0; copy <= (to.duplicates ?? 0); copy += 1) post(event, to);
  }

  function flush(): void {
    const to = delivery;
    const batch = held;
    held = [];
    if (!to) return;
    // Reversed, then each pair swapped: never the order they happened in.
    send([...batch].reverse(), to);
  }

  return {
    configure(next) {
      delivery = next;
    },
    emit(type, data) {
      const to = delivery;
      if (!to) return;
      emitted += 1;
      if (to.drop === true || losing) {
        dropped += 1;
        return;
      }
      const event = {
        specversion: "1.0",
        id: randomUUID(),
        type: `${TYPE_PREFIX}${type}`,
        source: "pim",
        ...(to.subject === undefined ? {} : { subject: to.subject }),
        time: new Date().toISOString(),
        datacontenttype: "application/json",
        data: { ...data, author: { identifier: "sim", type: "api" } },
      };
      const prepared = { body: JSON.stringify(event), correlationId: randomUUID() };
      if (to.reorderBatch !== undefined && to.reorderBatch > 1) {
        held.push(prepared);
        if (held.length >= to.reorderBatch) flush();
        return;
      }
      send([prepared], to);
    },
    flush,
    lose(on) {
      losing = on;
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    stats: () => ({ emitted, dropped, answered: { ...answered }, failed }),
  };
}

/** The `data` of an attribute-option event. */
export function optionEventData(attribute: string, option: string): Record<string, unknown> {
  return { attribute_option: { code: option, attribute: { code: attribute } } };
}

/** The `data` of a reference-entity-record event. */
export function recordEventData(entity: string, record: string): Record<string, unknown> {
  return { reference_entity_record: { code: record, reference_entity: { code: entity } } };
}
