import type { Logger } from "pino";
import { createRateLimitedWarnLog, type RateLimitedWarnLog } from "./rate-limited-warn-log.js";

export type PerAddressWarnLog<E extends { readonly ip: string }> = RateLimitedWarnLog<E>;

/**
 * A warning about what a client did, at most one line per client address per `intervalMs`: a
 * client repeating a refused request (a password guess, a broken body) would otherwise write one
 * line per request (see rate-limited-warn-log.ts for the `suppressed` count).
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
  return createRateLimitedWarnLog({ ...args, keyOf: (event) => event.ip });
}
