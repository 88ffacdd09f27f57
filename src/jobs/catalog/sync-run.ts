import { z } from "zod";
import type { SyncJobResult } from "../handlers/sync-job-result.js";
import { defineJob } from "./define-job.js";

/** A sync of one project: scheduled, from the CLI (queued), the trigger route, the admin or a replay. */
export const syncRunJob = defineJob({
  name: "sync.run",
  queue: "project",
  schema: z.strictObject({
    project: z.int().positive(),
    full: z.boolean().default(false),
    allow_mass_delete: z.boolean().default(false),
    // `admin`: POST /admin/api/projects/:id/sync (added for the change history; `api` is the trigger endpoint).
    trigger: z.enum(["schedule", "cli", "api", "admin", "replay"]).default("cli"),
    requested_by: z.string().trim().min(1).max(200).optional(),
  }),
  // 5 attempts: 30 s, 1 min, 2 min, 4 min apart (± jitter), about 8 minutes of outage covered.
  attempts: 5,
  backoff: { type: "exponential", delay: 30_000, jitter: 0.5 },
  timeoutMs: (settings) => settings.worker.sync_timeout_ms,
  summary(data) {
    const flags = ["full", "allow_mass_delete"].filter((flag) => data[flag] === true);
    const trigger = typeof data.trigger === "string" ? [`trigger ${data.trigger}`] : [];
    return [...flags, ...trigger].join(", ") || "sync";
  },
  deps: async (infra) => (await import("../handlers/run-sync-job.js")).syncRunDeps(infra),
  handler: async (data, context) => (await import("../handlers/run-sync-job.js")).runSyncJob(data, context),
  metricOutcome: (result: SyncJobResult) => (result.outcome === "held_back" ? "held_back" : "ok"),
  listedOutcome: (result) => (result.outcome === "held_back" ? "held_back" : null),
  enqueue: { kind: "merge-sync" },
});
