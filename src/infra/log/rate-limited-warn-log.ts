import type { Logger } from "pino";

export interface RateLimitedWarnLog<E> {
  warn(event: E): void;
}

/**
 * A warning written at most once per key per `intervalMs`: something repeated (a client's refused
 * request, a project's unusable events) would otherwise write one line each time. A line carries
 * `suppressed`, how many events of that key were left out since its previous line; the count of
 * a key that went quiet is written (as `leftOutMessage`) once its interval is over and another
 * event (of any key) comes in.
 */
export function createRateLimitedWarnLog<E>(args: {
  readonly logger: Logger;
  readonly intervalMs: number;
  readonly message: string;
  readonly leftOutMessage: string;
  /** Whose events share one line per interval. */
  readonly keyOf: (event: E) => string;
  /** The line's fields for an event. */
  readonly fieldsOf: (event: E) => Readonly<Record<string, unknown>>;
  readonly now?: () => number;
}): RateLimitedWarnLog<E> {
  const now = args.now ?? Date.now;
  const byKey = new Map<string, { loggedAt: number; suppressed: number; last: E }>();
  let sweptAt = now();

  function write(event: E, suppressed: number, message: string): void {
    args.logger.warn({ ...args.fieldsOf(event), suppressed }, message);
  }

  function sweep(at: number): void {
    if (at - sweptAt < args.intervalMs) return;
    sweptAt = at;
    for (const [key, entry] of byKey) {
      if (at - entry.loggedAt < args.intervalMs) continue;
      if (entry.suppressed > 0) write(entry.last, entry.suppressed, args.leftOutMessage);
      byKey.delete(key);
    }
  }

  return {
    warn(event) {
      const at = now();
      const key = args.keyOf(event);
      const entry = byKey.get(key);
      if (entry === undefined || at - entry.loggedAt >= args.intervalMs) {
        write(event, entry?.suppressed ?? 0, args.message);
        byKey.set(key, { loggedAt: at, suppressed: 0, last: event });
      } else {
        entry.suppressed += 1;
        entry.last = event;
      }
      sweep(at);
    },
  };
}
