import type { Logger } from "pino";
import { eventSyncMode, type EventSyncMode } from "../../features/events/event-sync-mode.js";
import type { PimEventStore } from "../../features/events/pim-event-store.js";
import type { SubscriptionStateStore } from "../../features/events/subscription-state-store.js";
import { FALLBACK_SCHEDULER_ID } from "../../infra/redis/queue-names.js";
import type { ProjectSettings } from "../../settings/settings-schema.js";
import { JOB_CATALOG } from "../catalog/job-catalog.js";
import { jobOptionsFor, type JobRetention } from "../queues/job-options.js";
import type { JobQueues } from "../queues/job-queues.js";

/** A project's event sync mode, with the interval its fallback syncs run at. */
export type AppliedSyncMode = EventSyncMode & { readonly everyMs: number | null };

export interface FallbackSchedules {
  /**
   * Decides the project's mode from its subscription's state and its last event, and puts its
   * fallback scheduler in line with it (added, changed or removed); a project without
   * `pim.events` is left alone. What the notification route calls after a notification, and the
   * safety keeper for every subscribed project (silence, a restarted Redis).
   */
  apply(project: number): Promise<AppliedSyncMode | null>;
  applyAll(): Promise<void>;
}

/**
 * The fallback syncs of subscribed projects: while pim-sync cannot count on a project's events
 * (docs/pim-events.md, "When pim-sync is blind"), a BullMQ scheduler of its own queues a whole
 * `sync.run` every `fallback_interval_ms`, beside the project's cron schedule; it is removed when
 * the subscription is active and talking again. Only a change is written and logged, so any
 * number of workers may apply the same decision.
 */
export function createFallbackSchedules(args: {
  readonly queues: JobQueues;
  readonly projects: readonly ProjectSettings[];
  readonly subscriptions: Pick<SubscriptionStateStore, "read">;
  readonly pimEvents: Pick<PimEventStore, "lastEventAt">;
  readonly retention: JobRetention;
  readonly logger: Logger;
  readonly now?: () => number;
}): FallbackSchedules {
  const log = args.logger.child({ component: "pim-events" });
  const now = args.now ?? Date.now;
  const subscribed = new Map(args.projects.flatMap((project) => (project.pim.events ? [[project.id, project.pim.events] as const] : [])));

  async function apply(project: number): Promise<AppliedSyncMode | null> {
    const events = subscribed.get(project);
    if (events === undefined) return null;
    const [status, lastEventAt] = await Promise.all([args.subscriptions.read(project), args.pimEvents.lastEventAt(project)]);
    const resumedAt = status?.state === "active" ? status.receivedAt : null;
    const heard = [lastEventAt, resumedAt].filter((at): at is number => at !== null);
    const mode = eventSyncMode({
      state: status?.state ?? "active",
      lastHeardAt: heard.length === 0 ? null : Math.max(...heard),
      nowMs: now(),
      silenceLimitMs: events.silence_limit_ms,
    });
    const queue = args.queues.queueFor(project);
    const scheduler = await queue.getJobScheduler(FALLBACK_SCHEDULER_ID);
    const currentEvery = scheduler?.every === undefined || scheduler.every === null ? null : Number(scheduler.every);
    if (!mode.fallback) {
      if (scheduler) {
        await queue.removeJobScheduler(FALLBACK_SCHEDULER_ID);
        log.info({ project }, "PIM event subscription active again: fallback syncs stopped, back to the schedule and events");
      }
      return { ...mode, everyMs: null };
    }
    if (currentEvery !== events.fallback_interval_ms) {
      await queue.upsertJobScheduler(
        FALLBACK_SCHEDULER_ID,
        { every: events.fallback_interval_ms },
        {
          name: "sync.run",
          data: JOB_CATALOG["sync.run"].schema.parse({ project, trigger: "schedule" }),
          opts: jobOptionsFor("sync.run", args.retention),
        },
      );
      log.warn(
        { project, reason: mode.reason, every_ms: events.fallback_interval_ms },
        `PIM events cannot be counted on (${mode.reason}): project synced every ${Math.round(events.fallback_interval_ms / 1000)} s until its subscription is active again`,
      );
    }
    return { ...mode, everyMs: events.fallback_interval_ms };
  }

  return {
    apply,
    async applyAll() {
      for (const project of subscribed.keys()) await apply(project);
    },
  };
}
