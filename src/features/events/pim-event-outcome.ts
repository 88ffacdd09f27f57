/**
 * What became of a PIM event a project's receiver was sent:
 * - `accepted`: recorded, its target pending for a targeted sync;
 * - `duplicate`: an event id already recorded (the platform delivers at least once);
 * - `ignored`: recorded, of a type pim-sync does not sync on (families, connections, unknown);
 * - `unusable`: recorded, of a type pim-sync syncs on but without the codes it needs in `data`
 *   (answered 200 all the same: the platform would only send it again);
 * - `refused`: not recorded: a wrong or missing signature, another tenant's subject, a body that
 *   is not an event.
 */
export const PIM_EVENT_OUTCOMES = ["accepted", "duplicate", "ignored", "unusable", "refused"] as const;
export type PimEventOutcome = (typeof PIM_EVENT_OUTCOMES)[number];

/** Told of every event a configured project's receiver answered (the metrics count them). */
export interface PimEventObserver {
  pimEventReceived(project: number, outcome: PimEventOutcome): void;
}
