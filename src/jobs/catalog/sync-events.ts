import { z } from "zod";
import { eventSyncDeduplicationId } from "../../infra/redis/queue-names.js";
import type { SyncJobResult } from "../handlers/sync-job-result.js";
import { defineJob } from "./define-job.js";

/**
 * A targeted sync of what the project's PIM events named (src/features/events/): the targets are in
 * Redis, not in the job, so every event of a window is carried by one job.
 */
export const syncEventsJob = defineJob({
  name: "sync.events",
  queue: "project",
  schema: z.strictObject({
    project: z.int().positive(),
    // An admin's resync (POST /admin/api/projects/:id/resync): what it names, not the pending events.
    resync: z
      .strictObject({
        request: z.string().min(1).max(100),
        collection: z.string().trim().min(1).max(500).optional(),
        attribute: z.string().trim().min(1).max(500).optional(),
        dry_run: z.boolean().default(false),
        requested_by: z.string().trim().min(1).max(200),
      })
      .refine((resync) => resync.collection === undefined || resync.attribute === undefined, {
        message: "name a collection or an attribute, not both",
      })
      .optional(),
  }),
  // 5 attempts: 5 s doubling to 40 s; the scheduled sync takes over after that.
  attempts: 5,
  backoff: { type: "exponential", delay: 5_000, jitter: 0.5 },
  timeoutMs: (settings) => settings.worker.sync_timeout_ms,
  summary(data) {
    const resync = typeof data.resync === "object" && data.resync !== null ? (data.resync as Record<string, unknown>) : undefined;
    if (resync === undefined) return "targeted sync of PIM events";
    const what =
      typeof resync.collection === "string"
        ? `collection ${resync.collection}`
        : typeof resync.attribute === "string"
          ? `attribute ${resync.attribute}`
          : "whole project";
    return `${resync.dry_run === true ? "dry run of a resync" : "resync"} of the ${what} by ${String(resync.requested_by)}`;
  },
  deps: async (infra) => (await import("../handlers/run-event-sync-job.js")).eventSyncDeps(infra),
  handler: async (data, context) => (await import("../handlers/run-event-sync-job.js")).runEventSyncJob(data, context),
  metricOutcome: (result: SyncJobResult) => (result.outcome === "held_back" ? "held_back" : "ok"),
  listedOutcome: (result) => (result.outcome === "held_back" ? "held_back" : null),
  // A resync is its own job: never merged into the events' waiting one, nor into another resync.
  enqueue: {
    kind: "one-waiting",
    deduplicationId: (data) => (data.resync ? `resync-${data.project}-${data.resync.request}` : eventSyncDeduplicationId(data.project)),
  },
  // One job per burst of events, queued by the platform's deliveries, never by a caller holding
  // its id: a 30-day record each was most of what an event left in Redis (docs/capacity.md).
  // BullMQ's own last 1,000 completed jobs and the change history (its ref) still answer.
  recordsCompletion: false,
});
