import { type Gauge, Registry, collectDefaultMetrics } from "prom-client";
import { AddOptionsRejected } from "../../features/add-options/add-options-rejected.js";
import type { AddOptionsReport } from "../../features/add-options/run-add-options.js";
import { AUTH_REFUSAL_REASONS, AUTH_SURFACES, type AuthRefusalObserver } from "../auth/auth-refusal.js";
import { PIM_EVENT_OUTCOMES, type PimEventObserver } from "../../features/events/pim-event-outcome.js";
import {
  SUBSCRIPTION_NOTIFICATION_OUTCOMES,
  type SubscriptionNotificationObserver,
} from "../../features/events/subscription-notification-outcome.js";
import { SUBSCRIPTION_STATES, type SubscriptionState } from "../../features/events/subscription-notification.js";
import type { SyncJobResult } from "../../jobs/handlers/sync-job-result.js";
import type { JobObserver, JobRunEnd } from "../../jobs/worker/job-observer.js";
import type { JobCatalog } from "../../jobs/catalog/job-catalog-of.js";
import { DEFAULT_JOB_CATALOG, type ProjectJobName } from "../../jobs/catalog/job-catalog.js";
import { classifyFailure } from "../../jobs/worker/classify-failure.js";
import { createActivationMetrics } from "./activation-metrics.js";
import { registerMetrics } from "./register-metrics.js";

/** The BullMQ states `pim_sync_jobs` reports. */
export const JOB_GAUGE_STATES = ["waiting", "active", "delayed", "failed", "completed"] as const;
export type JobCounts = Readonly<Partial<Record<(typeof JOB_GAUGE_STATES)[number], number>>>;

export interface WorkerMetrics extends JobObserver, AuthRefusalObserver, PimEventObserver, SubscriptionNotificationObserver {
  readonly registry: Registry;
  upstreamResponse(upstream: "pim" | "service", status: number | "error"): void;
  /** One answered HTTP request: `route` is the pattern the router matched (`/v1/jobs/:project/:id`), never the path. */
  httpRequestAnswered(method: string, route: string, status: number): void;
}

/**
 * prom-client's default gauges of the count of active handles, requests and resources end in
 * `_total`, which Prometheus reserves for counters (promtool refuses them). Their per-type
 * gauges (`nodejs_active_handles` ...) stay: their `sum` is the same number.
 */
const NON_COUNTERS_NAMED_TOTAL = ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"] as const;

function optionCount(data: unknown): number {
  const options = typeof data === "object" && data !== null ? (data as { options?: unknown }).options : undefined;
  return Array.isArray(options) ? options.length : 0;
}

/**
 * This process's metrics, in a registry of its own (not prom-client's global one, so two workers
 * in one test process do not mix). `jobCounts` is read at scrape time; a project it cannot read
 * (Redis away) is left out of `pim_sync_jobs` rather than reported as zero.
 */
export function createWorkerMetrics(args: {
  readonly projects: readonly number[];
  readonly jobCounts: (project: number) => Promise<JobCounts>;
  /** The Activation queue's counts, when `activation` is configured: reported as `project="activation"`, as its job refs are `activation/<id>`. */
  readonly activationJobCounts?: (() => Promise<JobCounts>) | undefined;
  /** When each project with a PIM event subscription last received an event (ms), read at scrape time. */
  readonly lastPimEventAt?: { readonly projects: readonly number[]; read(project: number): Promise<number | null> } | undefined;
  /**
   * The state of each subscribed project's Event Platform subscription as its last notification
   * left it (null: never notified, taken as active), read at scrape time.
   */
  readonly subscriptionState?:
    { readonly projects: readonly number[]; read(project: number): Promise<SubscriptionState | null> } | undefined;
  /** Options in a project's held plans awaiting review (src/features/sync/held/), read at scrape time; null when unknown (Redis away). */
  readonly heldDeletions?: ((project: number) => Promise<number | null>) | undefined;
  /** When the oldest of a project's held plans awaiting review was first held (ms); null when none waits or unknown. */
  readonly heldWaitingSince?: ((project: number) => Promise<number | null>) | undefined;
  /** The longest gap between two runs of a project's schedule (ms); null for a project without one. */
  readonly schedulePeriodMs?: ((project: number) => number | null) | undefined;
  /** Whether the worker is ready (what `GET /readyz` answers 200 for), read at scrape time. */
  readonly ready?: (() => Promise<boolean>) | undefined;
  /** Whose entries label `pim_sync_job_runs_total`: the catalog's list, or in a test the list with an entry of its own. */
  readonly catalog?: JobCatalog | undefined;
}): WorkerMetrics {
  const catalog = args.catalog ?? DEFAULT_JOB_CATALOG;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of NON_COUNTERS_NAMED_TOTAL) registry.removeSingleMetric(name);
  const heldDeletions = args.heldDeletions;
  const heldWaitingSince = args.heldWaitingSince;
  const schedulePeriodMs = args.schedulePeriodMs;
  const ready = args.ready;
  const lastPimEventAt = args.lastPimEventAt;
  const subscriptionState = args.subscriptionState;
  // In the order of `/metrics`.
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
    upstreamRequests: {
      type: "counter",
      name: "pim_sync_upstream_requests_total",
      help: "Upstream HTTP requests by upstream (pim, service) and status code (or error).",
      labelNames: ["upstream", "status"],
    },
    throttled: {
      type: "counter",
      name: "pim_sync_upstream_throttled_total",
      help: "Upstream answers 429 (too many requests).",
      labelNames: ["upstream"],
    },
    httpRequests: {
      type: "counter",
      name: "pim_sync_http_requests_total",
      help: "HTTP requests answered by the worker's server, by method, route pattern (unmatched when no route matched) and status code.",
      labelNames: ["method", "route", "status"],
    },
    authRefused: {
      type: "counter",
      name: "pim_sync_auth_refused_total",
      help: "Requests refused by the HTTP server's authentication, by surface (admin, trigger, metrics) and reason (missing, invalid, throttled, forbidden).",
      labelNames: ["surface", "reason"],
    },
    jobs: {
      type: "gauge",
      name: "pim_sync_jobs",
      help: 'Jobs in each project\'s queue (and the Activation queue, project="activation") by state, read from Redis at scrape time.',
      labelNames: ["project", "queue_state"],
      async collect(gauge: Gauge<"project" | "queue_state">) {
        const counts = await Promise.all(
          args.projects.map(async (project) => ({ project, counts: await args.jobCounts(project).catch(() => null) })),
        );
        const activation = args.activationJobCounts
          ? [{ project: "activation", counts: await args.activationJobCounts().catch(() => null) }]
          : [];
        for (const { project, counts: read } of [...counts, ...activation]) {
          if (read === null) continue;
          for (const state of JOB_GAUGE_STATES) gauge.set({ project: String(project), queue_state: state }, read[state] ?? 0);
        }
      },
    },
    heldDeletions: heldDeletions && {
      type: "gauge",
      name: "pim_sync_held_deletions",
      help: "Option deletions held back by the deletion guard and awaiting review (pending held plans, not approved, not expired), per project, read at scrape time.",
      labelNames: ["project"],
      async collect(gauge: Gauge<"project">) {
        const counts = await Promise.all(
          args.projects.map(async (project) => ({ project, count: await heldDeletions(project).catch(() => null) })),
        );
        for (const { project, count } of counts) if (count !== null) gauge.set({ project: String(project) }, count);
      },
    },
    // For alerts on how long a person has not looked: the option count says nothing of how long they wait.
    heldDeletionsAge: heldWaitingSince && {
      type: "gauge",
      name: "pim_sync_held_deletions_age_seconds",
      help: "Seconds since a run first held the oldest of the project's held plans awaiting review, read at scrape time; absent when none waits.",
      labelNames: ["project"],
      async collect(gauge: Gauge<"project">) {
        const now = Date.now();
        const since = await Promise.all(
          args.projects.map(async (project) => ({ project, at: await heldWaitingSince(project).catch(() => null) })),
        );
        for (const { project, at } of since) if (at !== null) gauge.set({ project: String(project) }, Math.max(0, (now - at) / 1000));
      },
    },
    // Beside the last success, so an alert on "two periods without a success" needs no cron in PromQL.
    schedulePeriod: schedulePeriodMs && {
      type: "gauge",
      name: "pim_sync_schedule_period_seconds",
      help: "The longest gap between two runs of the project's sync schedule (its cron over a year, from a fixed day), seconds; absent for a project without a schedule.",
      labelNames: ["project"],
      async collect(gauge: Gauge<"project">) {
        for (const project of args.projects) {
          const period = schedulePeriodMs(project);
          if (period !== null) gauge.set({ project: String(project) }, period / 1000);
        }
      },
    },
    ready: ready && {
      type: "gauge",
      name: "pim_sync_ready",
      help: "1 when the worker is ready (GET /readyz answers 200: Redis answers, every project's worker runs), 0 otherwise, read at scrape time.",
      labelNames: [],
      async collect(gauge: Gauge) {
        gauge.set((await ready().catch(() => false)) ? 1 : 0);
      },
    },
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
    eventSyncRuns: {
      type: "counter",
      name: "pim_sync_event_sync_runs_total",
      help: "Targeted syncs of PIM events (each attempt) by outcome: ok, failed, held_back.",
      labelNames: ["project", "outcome"],
    },
  });
  // Every series exists from the start, so a rate over the first refusal is not lost.
  for (const surface of AUTH_SURFACES) for (const reason of AUTH_REFUSAL_REASONS) metric.authRefused.inc({ surface, reason }, 0);
  // The series the alert rules (deploy/prometheus/) take an increase of exist from the start: a
  // counter first seen at 1 hides its first failure or 429 from `increase`.
  for (const project of args.projects)
    for (const outcome of ["ok", "failed", "held_back"] as const) metric.syncRuns.inc({ project: String(project), outcome }, 0);
  for (const upstream of ["pim", "service"] as const) metric.throttled.inc({ upstream }, 0);
  // Every series of a subscribed project exists from the start, so the first unusable event is a rate.
  for (const project of lastPimEventAt?.projects ?? [])
    for (const outcome of PIM_EVENT_OUTCOMES) metric.pimEventsReceived.inc({ project: String(project), outcome }, 0);
  for (const project of lastPimEventAt?.projects ?? [])
    for (const outcome of SUBSCRIPTION_NOTIFICATION_OUTCOMES) metric.pimEventNotifications.inc({ project: String(project), outcome }, 0);

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
  const activation = createActivationMetrics(registry);

  function outcomeOf(end: JobRunEnd): string {
    if (!end.ok) return classifyFailure(end.error).kind === "permanent" ? "failed_permanently" : "failed";
    const entry = catalog.has(end.name) ? catalog.entry(end.name) : undefined;
    return entry?.metricOutcome?.(end.result) ?? "ok";
  }

  return {
    registry,
    runEnded(end) {
      metric.jobRuns.inc({ queue: end.queue, job: end.name, outcome: outcomeOf(end) });
      if (end.queue === "activation") activation.runEnded(end);
      else if (Object.hasOwn(projectJobEnded, end.name)) projectJobEnded[end.name as ProjectJobName]?.(end);
    },
    authRefused(surface, reason) {
      metric.authRefused.inc({ surface, reason });
    },
    pimEventReceived(project, outcome) {
      metric.pimEventsReceived.inc({ project: String(project), outcome });
    },
    subscriptionNotificationReceived(project, outcome) {
      metric.pimEventNotifications.inc({ project: String(project), outcome });
    },
    httpRequestAnswered(method, route, status) {
      metric.httpRequests.inc({ method, route, status: String(status) });
    },
    upstreamResponse(upstream, status) {
      metric.upstreamRequests.inc({ upstream, status: String(status) });
      if (status === 429) metric.throttled.inc({ upstream });
    },
  };
}
