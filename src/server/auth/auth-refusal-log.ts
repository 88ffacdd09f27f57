import type { Logger } from "pino";
import { createPerAddressWarnLog } from "../../infra/log/per-address-warn-log.js";
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

/** `authentication refused` at warn, at most one line per client address per `intervalMs` (see per-address-warn-log.ts). */
export function createAuthRefusalLog(logger: Logger, intervalMs: number, now: () => number = Date.now): AuthRefusalLog {
  const log = createPerAddressWarnLog<AuthRefusalEvent>({
    logger,
    intervalMs,
    now,
    message: "authentication refused",
    leftOutMessage: "authentication refusals left out of the log",
    fieldsOf: (event) => ({
      surface: event.surface,
      reason: event.reason,
      ip: event.ip,
      ...(event.user === undefined
        ? {}
        : { user: event.user.length > MAX_LOGGED_NAME ? `${event.user.slice(0, MAX_LOGGED_NAME)}...` : event.user }),
    }),
  });
  return { refused: (event) => log.warn(event) };
}
