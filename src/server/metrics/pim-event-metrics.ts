import type { Gauge, Registry } from "prom-client";
import { PIM_EVENT_OUTCOMES, type PimEventObserver } from "../../features/events/pim-event-outcome.js";
import {
  SUBSCRIPTION_NOTIFICATION_OUTCOMES,
  type SubscriptionNotificationObserver,
} from "../../features/events/subscription-notification-outcome.js";
import { SUBSCRIPTION_STATES, type SubscriptionState } from "../../features/events/subscription-notification.js";
import { registerMetrics } from "./register-metrics.js";

/** What the PIM event gauges read at scrape time, for the projects with a PIM event subscription. */
export interface PimEventSources {
  /** When each project with a PIM event subscription last received an event (ms), read at scrape time. */
  readonly lastPimEventAt?: { readonly projects: readonly number[]; read(project: number): Promise<number | null> } | undefined;
  /**
   * The state of each subscribed project's Event Platform subscription as its last notification
   * left it (null: never notified, taken as active), read at scrape time.
   */
  readonly subscriptionState?:
    { readonly projects: readonly number[]; read(project: number): Promise<SubscriptionState | null> } | undefined;
}

/** The PIM events and Event Platform notifications the receivers answered, and what Redis says of each subscription. */
export function createPimEventMetrics(registry: Registry, sources: PimEventSources): PimEventObserver & SubscriptionNotificationObserver {
  const { lastPimEventAt, subscriptionState } = sources;
  const metric = registerMetrics(registry, {
    pimEventAge: lastPimEventAt && {
      type: "gauge",
      name: "pim_sync_pim_event_age_seconds",
      help: "Seconds since the project's PIM event subscription last delivered an event (any worker), read from Redis at scrape time; absent before the first event. A long silence means changes reach the service only at the next scheduled sync (docs/pim-events.md).",
      labelNames: ["project"],
      async collect(gauge: Gauge<"project">) {
        const now = Date.now();
        for (const project of lastPimEventAt.projects) {
          const at = await lastPimEventAt.read(project).catch(() => null);
          if (at !== null) gauge.set({ project: String(project) }, Math.max(0, (now - at) / 1000));
        }
      },
    },
    pimEventsReceived: {
      type: "counter",
      name: "pim_sync_pim_events_received_total",
      help: "PIM events sent to a project's receiver, by outcome: accepted, duplicate, ignored (a type pim-sync does not sync on), unusable (a synced type whose data lacks the codes), refused (signature, subject or body).",
      labelNames: ["project", "outcome"],
    },
    pimEventSubscriptionState: subscriptionState && {
      type: "gauge",
      name: "pim_sync_pim_event_subscription_state",
      help: 'The project\'s Event Platform subscription as its last notification left it: 1 for the current state among "active", "suspended" and "revoked", 0 for the others (active until a notification says otherwise), read from Redis at scrape time. While it is not active, the platform loses the project\'s events and the project is synced every pim.events.fallback_interval_ms (docs/pim-events.md).',
      labelNames: ["project", "state"],
      async collect(gauge: Gauge<"project" | "state">) {
        const read = await Promise.all(
          subscriptionState.projects.map(async (project) => ({
            project,
            state: await subscriptionState.read(project).then(
              (state) => state ?? "active",
              () => null,
            ),
          })),
        );
        for (const { project, state } of read) {
          // Unread (Redis away): left out rather than reported as any state.
          if (state === null) continue;
          for (const candidate of SUBSCRIPTION_STATES)
            gauge.set({ project: String(project), state: candidate }, candidate === state ? 1 : 0);
        }
      },
    },
    pimEventNotifications: {
      type: "counter",
      name: "pim_sync_pim_event_notifications_total",
      help: "Event Platform notifications (a subscription suspended, revoked or resumed) sent to a project's notification route, by outcome: applied, stale (older than the one recorded), ignored (an unknown notification_type), refused (signature or body), unknown_subscription.",
      labelNames: ["project", "outcome"],
    },
  });
  // Every series of a subscribed project exists from the start, so the first unusable event is a rate.
  for (const project of lastPimEventAt?.projects ?? [])
    for (const outcome of PIM_EVENT_OUTCOMES) metric.pimEventsReceived.inc({ project: String(project), outcome }, 0);
  for (const project of lastPimEventAt?.projects ?? [])
    for (const outcome of SUBSCRIPTION_NOTIFICATION_OUTCOMES) metric.pimEventNotifications.inc({ project: String(project), outcome }, 0);

  return {
    pimEventReceived(project, outcome) {
      metric.pimEventsReceived.inc({ project: String(project), outcome });
    },
    subscriptionNotificationReceived(project, outcome) {
      metric.pimEventNotifications.inc({ project: String(project), outcome });
    },
  };
}
