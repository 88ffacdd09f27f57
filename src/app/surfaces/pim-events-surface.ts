import { eventWindowDelay, type EventWindow } from "../../features/events/event-window.js";
import { pimEventNotificationRoutes } from "../../server/trigger/pim-event-notification-routes.js";
import { pimEventRoutes } from "../../server/trigger/pim-event-routes.js";
import { defineHttpSurface } from "./http-surface.js";

/**
 * The PIM events' receiver and, beside it, the platform's notifications of a subscription
 * suspended, revoked or resumed; served when a project has `pim.events`. Not gated: recording an
 * event needs Redis, not the started worker, and a 503 while the worker starts would count
 * towards suspending the subscription.
 */
export const pimEventsSurface = defineHttpSurface({
  name: "pim events",
  deps(parts) {
    const { settings, listen, logger, metrics, worker } = parts;
    if (!settings.projects.some((project) => project.pim.events !== undefined)) return null;
    const shared = {
      projects: settings.projects,
      logger,
      redisTimeoutMs: listen.redis_timeout_ms,
      warnIntervalMs: listen.auth_throttle.log_interval_ms,
      observer: metrics,
    };
    return {
      events: {
        ...shared,
        store: worker.pimEvents,
        enqueue: async (project: number, window: EventWindow) =>
          void (await worker.queues.enqueue("sync.events", { project }, eventWindowDelay(window))),
      },
      notifications: {
        ...shared,
        subscriptions: worker.subscriptions,
        applySyncMode: (project: number) => worker.fallbackSchedules.apply(project),
      },
    };
  },
  async register(scope, deps) {
    await scope.register(pimEventRoutes, deps.events);
    await scope.register(pimEventNotificationRoutes, deps.notifications);
  },
});
