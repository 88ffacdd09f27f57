/**
 * The Event Platform's notification webhook, as the PIM simulator plays it: a subscription
 * suspended, revoked or resumed is POSTed to the subscriber's notification URL with the body
 * Akeneo documents (api.akeneo.com, event-platform, "Notification webhooks": notification_type,
 * timestamp, subscription_id, subscriber_id, destination, events, reason, subject), signed like
 * events (hex HMAC-SHA256 of the raw body in X-AKENEO-SIGNATURE-PRIMARY, with the subscriber's
 * one notification secret). A suspended or revoked subscription also loses the events meanwhile,
 * as the platform's does: the event emitter drops them until the resume.
 */
import { createHmac, randomUUID } from "node:crypto";
import type { PimEventEmitter } from "./pim-event-emitter.js";

export const NOTIFICATION_TYPES = {
  suspend: "subscription.suspended.system",
  "suspend-user": "subscription.suspended.user",
  revoke: "subscription.revoked",
  resume: "subscription.resumed",
} as const;
export type NotificationAction = keyof typeof NOTIFICATION_TYPES;

export interface NotificationTarget {
  /** The subscriber's notification URL (a receiver's `/v1/pim-event-notifications/<project>`). */
  readonly url: string;
  /** The subscriber's notification secret: signs X-AKENEO-SIGNATURE-PRIMARY. */
  readonly secret: string;
  /** The subscription the notifications are about (a fresh UUID when left out). */
  readonly subscriptionId?: string;
  readonly subscriberId?: string;
  /** The PIM URL the notifications carry as `subject`. */
  readonly subject?: string;
  /** Where the subscription delivers its events (`destination`). */
  readonly destination?: string;
}

export interface PostedNotification {
  readonly body: string;
  readonly status: number;
}

export interface SubscriptionNotifier {
  /** Starts (or changes, or with null stops) the notifications. */
  configure(target: NotificationTarget | null): void;
  /** Whether `configure` gave a target. */
  configured(): boolean;
  /**
   * Moves the subscription (the event emitter drops events while it is not active) and posts the
   * signed notification; resolves with the receiver's answer. `timestamp` overrides the body's
   * time (an old retry overtaken by a newer notification); `type` overrides the action's type.
   */
  notify(
    action: NotificationAction,
    options?: { readonly reason?: string; readonly timestamp?: string; readonly type?: string },
  ): Promise<PostedNotification>;
}

const SUBSCRIBED_EVENTS = [
  "com.akeneo.pim.v1.attribute.created",
  "com.akeneo.pim.v1.attribute.updated",
  "com.akeneo.pim.v1.attribute.deleted",
  "com.akeneo.pim.v1.attribute-option.created",
  "com.akeneo.pim.v1.attribute-option.updated",
  "com.akeneo.pim.v1.attribute-option.deleted",
];

const DEFAULT_REASONS: Readonly<Record<NotificationAction, string | undefined>> = {
  suspend: "Success rate dropped below 90%",
  "suspend-user": "Suspended through the API",
  revoke: "Subscription revoked",
  resume: undefined,
};

export function createSubscriptionNotifier(events: PimEventEmitter): SubscriptionNotifier {
  let target: NotificationTarget | null = null;
  let subscriptionId: string = randomUUID();
  const subscriberId = randomUUID();
  return {
    configure(next) {
      target = next;
      if (next?.subscriptionId !== undefined) subscriptionId = next.subscriptionId;
    },
    configured: () => target !== null,
    async notify(action, options = {}) {
      const to = target;
      if (to === null) throw new Error("no notification URL configured (subscription.configure)");
      events.lose(action !== "resume");
      const reason = options.reason ?? DEFAULT_REASONS[action];
      const body = JSON.stringify({
        notification_type: options.type ?? NOTIFICATION_TYPES[action],
        timestamp: options.timestamp ?? new Date().toISOString(),
        subscription_id: subscriptionId,
        subscriber_id: to.subscriberId ?? subscriberId,
        destination: to.destination ?? "https://pim-sync.example.com/v1/pim-events",
        events: SUBSCRIBED_EVENTS,
        ...(reason === undefined ? {} : { reason }),
        subject: to.subject ?? "https://pim.example.com/",
      });
      const response = await fetch(to.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "akeneo/event-platform",
          "x-akeneo-signature-algorithm": "HmacSHA256",
          "x-akeneo-signature-primary": createHmac("sha256", to.secret).update(body).digest("hex"),
        },
        body,
        // The platform waits 5 s for an answer.
        signal: AbortSignal.timeout(5_000),
        redirect: "manual",
      });
      await response.arrayBuffer();
      return { body, status: response.status };
    },
  };
}
