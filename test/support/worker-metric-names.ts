import { createWorkerMetrics } from "../../src/server/metrics/worker-metrics.js";

/** The name of every metric a worker may register: every optional collector given. */
export function workerMetricNames(): string[] {
  const metrics = createWorkerMetrics({
    projects: [67],
    jobCounts: async () => ({}),
    activationJobCounts: async () => ({}),
    lastPimEventAt: { projects: [67], read: async () => null },
    subscriptionState: { projects: [67], read: async () => null },
    heldDeletions: async () => null,
    heldWaitingSince: async () => null,
    schedulePeriodMs: () => null,
    ready: async () => true,
  });
  return metrics.registry.getMetricsAsArray().map((metric) => metric.name);
}
