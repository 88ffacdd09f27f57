import { Registry, collectDefaultMetrics } from "prom-client";
import type { PimEventObserver } from "../../features/events/pim-event-outcome.js";
import type { SubscriptionNotificationObserver } from "../../features/events/subscription-notification-outcome.js";
import type { JobObserver } from "../../jobs/worker/job-observer.js";
import type { JobCatalog } from "../../jobs/catalog/job-catalog-of.js";
import { DEFAULT_JOB_CATALOG } from "../../jobs/catalog/job-catalog.js";
import { createActivationMetrics } from "./activation-metrics.js";
import { createHttpAnswerMetrics, type HttpAnswerMetrics } from "./http-answer-metrics.js";
import { createJobRunMetrics } from "./job-run-metrics.js";
import { createPimEventMetrics, type PimEventSources } from "./pim-event-metrics.js";
import { registerScrapeTimeGauges, type ScrapeSources } from "./scrape-time-gauges.js";

export interface WorkerMetrics extends JobObserver, HttpAnswerMetrics, PimEventObserver, SubscriptionNotificationObserver {
  readonly registry: Registry;
}

/**
 * prom-client's default gauges of the count of active handles, requests and resources end in
 * `_total`, which Prometheus reserves for counters (promtool refuses them). Their per-type
 * gauges (`nodejs_active_handles` ...) stay: their `sum` is the same number.
 */
const NON_COUNTERS_NAMED_TOTAL = ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"] as const;

/**
 * This process's metrics, in a registry of its own (not prom-client's global one, so two workers
 * in one test process do not mix), in the order of `/metrics`: the process's defaults, the job
 * runs, the HTTP answers, the gauges read at scrape time, the PIM events, the Activation jobs.
 */
export function createWorkerMetrics(
  args: ScrapeSources &
    PimEventSources & {
      /** Whose entries label `pim_sync_job_runs_total`: the catalog's list, or in a test the list with an entry of its own. */
      readonly catalog?: JobCatalog | undefined;
    },
): WorkerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of NON_COUNTERS_NAMED_TOTAL) registry.removeSingleMetric(name);
  const jobRuns = createJobRunMetrics(registry, { projects: args.projects, catalog: args.catalog ?? DEFAULT_JOB_CATALOG });
  const answers = createHttpAnswerMetrics(registry);
  registerScrapeTimeGauges(registry, args);
  const pimEvents = createPimEventMetrics(registry, args);
  const activation = createActivationMetrics(registry);

  return {
    registry,
    ...answers,
    ...pimEvents,
    runEnded(end) {
      jobRuns.runEnded(end);
      if (end.queue === "activation") activation.runEnded(end);
    },
  };
}
