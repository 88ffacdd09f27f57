import type { Logger } from "pino";

export interface PerAddressWarnLog<E extends { readonly ip: string }> {
  warn(event: E): void;
}

/**
 * A warning about what a client did, at most one line per client address per `intervalMs`: a
 * client repeating a refused request (a password guess, a broken body) would otherwise write one
 * line per request. A line carries `suppressed`, how many events of that address were left out
 * since its previous line; the count of an address that stopped is written (as `leftOutMessage`)
 * once its interval is over and another event (from anyone) comes in.
 */
export function createPerAddressWarnLog<E extends { readonly ip: string }>(args: {
  readonly logger: Logger;
  readonly intervalMs: number;
  readonly message: string;
  readonly leftOutMessage: string;
  /** The line's fields for an event (the address included). */
  readonly fieldsOf: (event: E) => Readonly<Record<string, unknown>>;
  readonly now?: () => number;
}): PerAddressWarnLog<E> {
  const now = args.now ?? Date.now;
  const byAddress = new Map<string, { loggedAt: number; suppressed: number; last: E }>();
  let sweptAt = now();

  function write(event: E, suppressed: number, message: string): void {
    args.logger.warn({ ...args.fieldsOf(event), suppressed }, message);
  }

  function sweep(at: number): void {
    if (at - sweptAt < args.intervalMs) return;
    sweptAt = at;
    for (const [ip, entry] of byAddress) {
      if (at - entry.loggedAt < args.intervalMs) continue;
      if (entry.suppressed > 0) write(entry.last, entry.suppressed, args.leftOutMessage);
      byAddress.delete(ip);
    }
  }

  return {
    warn(event) {
      const at = now();
      const entry = byAddress.get(event.ip);
      if (entry === undefined || at - entry.loggedAt >= args.intervalMs) {
        write(event, entry?.suppressed ?? 0, args.message);
        byAddress.set(event.ip, { loggedAt: at, suppressed: 0, last: event });
      } else {
        entry.suppressed += 1;
        entry.last = event;
      }
      sweep(at);
    },
  };
}
