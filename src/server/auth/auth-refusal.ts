/** Where a request asked to be let in: the dashboard/admin API, the trigger routes, `/metrics`. */
export const AUTH_SURFACES = ["admin", "trigger", "metrics"] as const;
export type AuthSurface = (typeof AUTH_SURFACES)[number];

/**
 * Why it was refused: no credentials at all, wrong ones, too many wrong ones lately (not
 * checked), or (admin) a known user asking for what their role or the route table does not allow.
 */
export const AUTH_REFUSAL_REASONS = ["missing", "invalid", "throttled", "forbidden"] as const;
export type AuthRefusalReason = (typeof AUTH_REFUSAL_REASONS)[number];

/** Told of every refusal (the metrics count them). */
export interface AuthRefusalObserver {
  authRefused(surface: AuthSurface, reason: AuthRefusalReason): void;
}
