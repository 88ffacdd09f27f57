/**
 * What became of a notification sent to a project's notification route:
 * - `applied`: the subscription's state recorded (and the fallback syncs put in line with it);
 * - `stale`: older than the notification already recorded (a retry overtaken): nothing changed;
 * - `ignored`: a `notification_type` pim-sync does not know: logged, answered 200, nothing changed;
 * - `refused`: a wrong or missing signature, or a body that is not a notification (401, 400);
 * - `unknown_subscription`: about a subscription that is neither this project's nor another
 *   configured project's (403).
 */
export const SUBSCRIPTION_NOTIFICATION_OUTCOMES = ["applied", "stale", "ignored", "refused", "unknown_subscription"] as const;
export type SubscriptionNotificationOutcome = (typeof SUBSCRIPTION_NOTIFICATION_OUTCOMES)[number];

/** Told of every notification a configured project's route answered (the metrics count them). */
export interface SubscriptionNotificationObserver {
  subscriptionNotificationReceived(project: number, outcome: SubscriptionNotificationOutcome): void;
}
