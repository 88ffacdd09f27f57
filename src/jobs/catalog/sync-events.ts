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
  schema: z.strictObject({ project: z.int().positive() }),
  // 5 attempts: 5 s doubling to 40 s; the scheduled sync takes over after that.
  attempts: 5,
  backoff: { type: "exponential", delay: 5_000, jitter: 0.5 },
  timeoutMs: (settings) => settings.worker.sync_timeout_ms,
  summary: () => "targeted sync of PIM events",
  deps: async (infra) => (await import("../handlers/run-event-sync-job.js")).eventSyncDeps(infra),
  handler: async (data, context) => (await import("../handlers/run-event-sync-job.js")).runEventSyncJob(data, context),
  metricOutcome: (result: SyncJobResult) => (result.outcome === "held_back" ? "held_back" : "ok"),
  listedOutcome: (result) => (result.outcome === "held_back" ? "held_back" : null),
  enqueue: { kind: "one-waiting", deduplicationId: (data) => eventSyncDeduplicationId(data.project) },
  // One job per burst of events, queued by the platform's deliveries, never by a caller holding
  // its id: a 30-day record each was most of what an event left in Redis (docs/capacity.md).
  // BullMQ's own last 1,000 completed jobs and the change history (its ref) still answer.
  recordsCompletion: false,
});
