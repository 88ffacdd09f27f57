import type { Logger } from "pino";
import type { AuthRefusalReason, AuthSurface } from "./auth-refusal.js";

export interface AuthRefusalEvent {
  readonly surface: AuthSurface;
  readonly reason: AuthRefusalReason;
  readonly ip: string;
  /** The user name the client gave (admin HTTP Basic), when it gave one. */
  readonly user?: string | undefined;
}

export interface AuthRefusalLog {
  refused(event: AuthRefusalEvent): void;
}

/** Longer names are cut: the name is the client's text and ends up in every warning. */
const MAX_LOGGED_NAME = 64;

/**
 * `authentication refused` at warn, at most one line per client address per `intervalMs`: a
 * client guessing passwords would otherwise write one line per guess. A line carries
 * `suppressed`, how many refusals of that address were left out since its previous line; the
 * count of an address that stopped is written once its interval is over and another refusal
 * (from anyone) comes in.
 */
export function createAuthRefusalLog(logger: Logger, intervalMs: number, now: () => number = Date.now): AuthRefusalLog {
  const byAddress = new Map<string, { loggedAt: number; suppressed: number; last: AuthRefusalEvent }>();
  let sweptAt = now();

  function write(event: AuthRefusalEvent, suppressed: number, message: string): void {
    const user = event.user === undefined ? {} : { user: event.user.length > MAX_LOGGED_NAME ? `${event.user.slice(0, MAX_LOGGED_NAME)}...` : event.user };
    logger.warn({ surface: event.surface, reason: event.reason, ip: event.ip, ...user, suppressed }, message);
  }

  function sweep(at: number): void {
    if (at - sweptAt < intervalMs) return;
    sweptAt = at;
    for (const [ip, entry] of byAddress) {
      if (at - entry.loggedAt < intervalMs) continue;
      if (entry.suppressed > 0) write(entry.last, entry.suppressed, "authentication refusals left out of the log");
      byAddress.delete(ip);
    }
  }

  return {
    refused(event) {
      const at = now();
      const entry = byAddress.get(event.ip);
      if (entry === undefined || at - entry.loggedAt >= intervalMs) {
        write(event, entry?.suppressed ?? 0, "authentication refused");
        byAddress.set(event.ip, { loggedAt: at, suppressed: 0, last: event });
      } else {
        entry.suppressed += 1;
        entry.last = event;
      }
      sweep(at);
    },
  };
}
