import type { Gauge, Registry } from "prom-client";
import { registerMetrics } from "./register-metrics.js";

/** The BullMQ states `pim_sync_jobs` reports. */
export const JOB_GAUGE_STATES = ["waiting", "active", "delayed", "failed", "completed"] as const;
export type JobCounts = Readonly<Partial<Record<(typeof JOB_GAUGE_STATES)[number], number>>>;

/** Where the gauges read at scrape time read from; a gauge whose source is left out is not registered. */
export interface ScrapeSources {
  readonly projects: readonly number[];
  readonly jobCounts: (project: number) => Promise<JobCounts>;
  /** The Activation queue's counts, when `activation` is configured: reported as `project="activation"`, as its job refs are `activation/<id>`. */
  readonly activationJobCounts?: (() => Promise<JobCounts>) | undefined;
  /** Options in a project's held plans awaiting review (src/features/sync/held/), read at scrape time; null when unknown (Redis away). */
  readonly heldDeletions?: ((project: number) => Promise<number | null>) | undefined;
  /** When the oldest of a project's held plans awaiting review was first held (ms); null when none waits or unknown. */
  readonly heldWaitingSince?: ((project: number) => Promise<number | null>) | undefined;
  /** The longest gap between two runs of a project's schedule (ms); null for a project without one. */
  readonly schedulePeriodMs?: ((project: number) => number | null) | undefined;
  /** Whether the worker is ready (what `GET /readyz` answers 200 for), read at scrape time. */
  readonly ready?: (() => Promise<boolean>) | undefined;
}

/**
 * The queues', held plans', schedules' and readiness gauges, read at each scrape. A project
 * whose value cannot be read (Redis away) is left out rather than reported as zero.
 */
export function registerScrapeTimeGauges(registry: Registry, sources: ScrapeSources): void {
  const { projects, heldDeletions, heldWaitingSince, schedulePeriodMs, ready } = sources;
  registerMetrics(registry, {
    jobs: {
      type: "gauge",
      name: "pim_sync_jobs",
      help: 'Jobs in each project\'s queue (and the Activation queue, project="activation") by state, read from Redis at scrape time.',
      labelNames: ["project", "queue_state"],
      async collect(gauge: Gauge<"project" | "queue_state">) {
        const counts = await Promise.all(
          projects.map(async (project) => ({ project, counts: await sources.jobCounts(project).catch(() => null) })),
        );
        const activation = sources.activationJobCounts
          ? [{ project: "activation", counts: await sources.activationJobCounts().catch(() => null) }]
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
          projects.map(async (project) => ({ project, count: await heldDeletions(project).catch(() => null) })),
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
          projects.map(async (project) => ({ project, at: await heldWaitingSince(project).catch(() => null) })),
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
        for (const project of projects) {
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
  });
}
