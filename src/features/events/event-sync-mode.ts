import type { SubscriptionState } from "./subscription-notification.js";

/** Why a project is synced on its fallback interval: pim-sync cannot count on its events. */
export type FallbackReason = "suspended" | "revoked" | "silent";

export type EventSyncMode = { readonly fallback: false } | { readonly fallback: true; readonly reason: FallbackReason };

/**
 * Whether a subscribed project must be synced on its fallback interval: its subscription is
 * suspended or revoked (the platform loses every event meanwhile), or nothing has come for longer
 * than its silence limit. Silence counts from the last event or the last resume, whichever came
 * later: a resume after a long suspension is the platform talking again, and ends the fallback.
 * A project that has heard neither is not judged silent: a new subscription, or a PIM nobody
 * changes, sends nothing.
 */
export function eventSyncMode(facts: {
  readonly state: SubscriptionState;
  /** The later of the last event's arrival and the last resume's, in ms; null when neither happened. */
  readonly lastHeardAt: number | null;
  readonly nowMs: number;
  readonly silenceLimitMs: number;
}): EventSyncMode {
  if (facts.state !== "active") return { fallback: true, reason: facts.state };
  if (facts.lastHeardAt !== null && facts.nowMs - facts.lastHeardAt > facts.silenceLimitMs) return { fallback: true, reason: "silent" };
  return { fallback: false };
}
