import { z } from "zod";

/** What pim-sync tracks of a project's Event Platform subscription. */
export const SUBSCRIPTION_STATES = ["active", "suspended", "revoked"] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

/**
 * The body of the Event Platform's notification webhook (api.akeneo.com, event-platform,
 * "Notification webhooks"). Only what pim-sync acts on is required: the type, the subscription
 * and the time the platform built it (notifications may be retried, so may arrive out of order).
 * The other documented fields (`subscriber_id`, `destination`, `events`, `reason`, `subject`)
 * are read when present and their absence refuses nothing: a field the platform drops one day
 * must not stop an operator from learning of a suspension.
 */
export const subscriptionNotificationSchema = z.looseObject({
  notification_type: z
    .string()
    .min(1)
    .max(200)
    .describe("subscription.suspended.system, subscription.suspended.user, subscription.revoked or subscription.resumed"),
  timestamp: z.iso.datetime({ offset: true }).describe("when the platform built the notification (RFC 3339, UTC)"),
  subscription_id: z.string().min(1).max(200).describe("the subscription whose status changed"),
  subscriber_id: z.string().max(200).optional(),
  destination: z.string().max(2_000).optional(),
  events: z.array(z.string().max(200)).max(1_000).optional(),
  reason: z.string().max(2_000).optional().describe("why the status changed, when the platform says"),
  subject: z.string().max(2_000).optional().describe("the PIM URL of the subscriber"),
});

export type SubscriptionNotification = z.output<typeof subscriptionNotificationSchema>;

const STATE_OF_TYPE: Readonly<Record<string, SubscriptionState>> = {
  "subscription.suspended.system": "suspended",
  "subscription.suspended.user": "suspended",
  "subscription.revoked": "revoked",
  "subscription.resumed": "active",
};

/** The state a notification type moves the subscription to; null for a type pim-sync does not know (logged and ignored). */
export function stateOfNotificationType(type: string): SubscriptionState | null {
  return Object.hasOwn(STATE_OF_TYPE, type) ? (STATE_OF_TYPE[type] ?? null) : null;
}
