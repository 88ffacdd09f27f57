import type { Registry } from "prom-client";
import { AddOptionsRejected } from "../../features/add-options/add-options-rejected.js";
import type { AddOptionsReport } from "../../features/add-options/run-add-options.js";
import type { SyncJobResult } from "../../jobs/handlers/sync-job-result.js";
import type { JobObserver, JobRunEnd } from "../../jobs/worker/job-observer.js";
import type { JobCatalog } from "../../jobs/catalog/job-catalog-of.js";
import type { ProjectJobName } from "../../jobs/catalog/job-catalog.js";
import { classifyFailure } from "../../jobs/worker/classify-failure.js";
import { registerMetrics } from "./register-metrics.js";

function optionCount(data: unknown): number {
  const options = typeof data === "object" && data !== null ? (data as { options?: unknown }).options : undefined;
  return Array.isArray(options) ? options.length : 0;
}

/**
 * What the project jobs' runs ended with: every job's runs by outcome, and what syncs,
 * targeted syncs and add-options jobs did. The Activation jobs' own counters are
 * activation-metrics.ts'.
 */
export function createJobRunMetrics(
  registry: Registry,
  args: {
    readonly projects: readonly number[];
    /** Whose entries label `pim_sync_job_runs_total`. */
    readonly catalog: JobCatalog;
  },
): JobObserver {
  const { catalog } = args;
  const metric = registerMetrics(registry, {
    syncRuns: {
      type: "counter",
      name: "pim_sync_sync_runs_total",
      help: "Sync job runs (each attempt) by outcome: ok, failed, held_back.",
      labelNames: ["project", "outcome"],
    },
    syncDuration: {
      type: "histogram",
      name: "pim_sync_sync_duration_seconds",
      help: "Duration of sync job runs (each attempt) by outcome: ok, failed, held_back.",
      labelNames: ["project", "outcome"],
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
    },
    optionsWritten: {
      type: "counter",
      name: "pim_sync_options_written_total",
      help: "Options written to the configuration service by syncs, by kind: upsert, delete.",
      labelNames: ["project", "kind"],
    },
    heldBack: {
      type: "counter",
      name: "pim_sync_deletions_held_back_total",
      help: "Option deletions the deletion guard held back.",
      labelNames: ["project"],
    },
    lastSuccess: {
      type: "gauge",
      name: "pim_sync_last_success_timestamp_seconds",
      help: "When a sync of the project last ended without failure (held_back included), Unix seconds.",
      labelNames: ["project"],
    },
    // Options, not jobs (the name said add-options runs): added and already_present per collection.
    addOptions: {
      type: "counter",
      name: "pim_sync_add_options_options_total",
      help: "Options of add-options jobs by outcome: added and already_present count options per collection; rejected (refused, not retried) and failed (the run failed) count the options the job asked for.",
      labelNames: ["project", "outcome"],
    },
    // Every job of the catalog, whatever its queue: the entry names the outcome of a run that ended well.
    jobRuns: {
      type: "counter",
      name: "pim_sync_job_runs_total",
      help: "Job runs (each attempt) of every job, by queue (project, activation), job name and outcome: ok or the job's own (held_back for syncs), failed (will be retried), failed_permanently.",
      labelNames: ["queue", "job", "outcome"],
    },
    eventSyncRuns: {
      type: "counter",
      name: "pim_sync_event_sync_runs_total",
      help: "Targeted syncs of PIM events (each attempt) by outcome: ok, failed, held_back.",
      labelNames: ["project", "outcome"],
    },
  });
  // The series the alert rules (deploy/prometheus/) take an increase of exist from the start: a
  // counter first seen at 1 hides its first failure from `increase`.
  for (const project of args.projects)
    for (const outcome of ["ok", "failed", "held_back"] as const) metric.syncRuns.inc({ project: String(project), outcome }, 0);

  /** What a sync wrote and held back, whether the whole project's or a PIM event's targeted one. */
  function writesCounted(project: string, result: SyncJobResult): void {
    metric.optionsWritten.inc({ project, kind: "upsert" }, result.upserts);
    metric.optionsWritten.inc({ project, kind: "delete" }, result.deletes);
    metric.heldBack.inc(
      { project },
      result.heldBack.reduce((sum, held) => sum + held.names, 0),
    );
  }

  /** A targeted sync writes options like a sync, but is no proof the whole project is in step. */
  function eventSyncEnded(end: JobRunEnd): void {
    const project = end.subject;
    if (!end.ok) {
      metric.eventSyncRuns.inc({ project, outcome: "failed" });
      return;
    }
    const result = end.result as SyncJobResult;
    metric.eventSyncRuns.inc({ project, outcome: result.outcome === "held_back" ? "held_back" : "ok" });
    writesCounted(project, result);
  }

  function syncEnded(end: JobRunEnd): void {
    const project = end.subject;
    const seconds = end.durationMs / 1000;
    if (!end.ok) {
      metric.syncRuns.inc({ project, outcome: "failed" });
      metric.syncDuration.observe({ project, outcome: "failed" }, seconds);
      return;
    }
    const result = end.result as SyncJobResult;
    const outcome = result.outcome === "held_back" ? "held_back" : "ok";
    metric.syncRuns.inc({ project, outcome });
    metric.syncDuration.observe({ project, outcome }, seconds);
    writesCounted(project, result);
    metric.lastSuccess.set({ project }, Date.now() / 1000);
  }

  function addOptionsEnded(end: JobRunEnd): void {
    const project = end.subject;
    if (!end.ok) {
      metric.addOptions.inc({ project, outcome: end.error instanceof AddOptionsRejected ? "rejected" : "failed" }, optionCount(end.data));
      return;
    }
    const report = end.result as AddOptionsReport;
    metric.addOptions.inc(
      { project, outcome: "added" },
      report.collections.reduce((sum, c) => sum + c.added.length, 0),
    );
    metric.addOptions.inc(
      { project, outcome: "already_present" },
      report.collections.reduce((sum, c) => sum + c.skipped.length, 0),
    );
  }

  /** The project jobs' own metrics; a job left out is counted by `pim_sync_job_runs_total` only. */
  const projectJobEnded: { readonly [N in ProjectJobName]?: (end: JobRunEnd) => void } = {
    "sync.run": syncEnded,
    "sync.events": eventSyncEnded,
    "options.add": addOptionsEnded,
  };

  function outcomeOf(end: JobRunEnd): string {
    if (!end.ok) return classifyFailure(end.error).kind === "permanent" ? "failed_permanently" : "failed";
    const entry = catalog.has(end.name) ? catalog.entry(end.name) : undefined;
    return entry?.metricOutcome?.(end.result) ?? "ok";
  }

  return {
    runEnded(end) {
      metric.jobRuns.inc({ queue: end.queue, job: end.name, outcome: outcomeOf(end) });
      if (end.queue !== "activation" && Object.hasOwn(projectJobEnded, end.name)) projectJobEnded[end.name as ProjectJobName]?.(end);
    },
  };
}
