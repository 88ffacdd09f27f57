import type { Registry } from "prom-client";
import type { PullReport } from "../../features/activation/pull-orders.js";
import type { OffersReport } from "../../features/activation/put-offers.js";
import type { ResendReport } from "../../features/activation/resend-refused.js";
import { classifyFailure } from "../../jobs/worker/classify-failure.js";
import type { JobObserver, JobRunEnd } from "../../jobs/worker/job-observer.js";
import type { ActivationJobName } from "../../jobs/catalog/job-catalog.js";
import { registerMetrics } from "./register-metrics.js";

function offerCount(data: unknown): number {
  const offers = typeof data === "object" && data !== null ? (data as { offers?: unknown }).offers : undefined;
  return Array.isArray(offers) ? offers.length : 0;
}

/**
 * The Activation jobs' counters. `connection` is a channel connection id the API answered for
 * (a run against an id the account does not have fails before any count), so its values are
 * bounded by the account's connections; runs are counted by job name only.
 */
export function createActivationMetrics(registry: Registry): JobObserver {
  const { runs, orders, offers, shipments } = registerMetrics(registry, {
    runs: {
      type: "counter",
      name: "pim_sync_activation_runs_total",
      help: "Activation job runs (each attempt) by job name and outcome: ok, failed (will be retried), failed_permanently.",
      labelNames: ["job", "outcome"],
    },
    orders: {
      type: "counter",
      name: "pim_sync_activation_orders_total",
      help: "Orders by connection and outcome: pulled (listed by the API), delivered (handed to the sink), refused (set aside), resent (a set-aside order delivered on request).",
      labelNames: ["connection", "outcome"],
    },
    offers: {
      type: "counter",
      name: "pim_sync_activation_offers_total",
      help: "Offers by connection and outcome: sent (accepted by the API), skipped (unchanged since last accepted), refused (every offer of a put job that failed for good, e.g. a batch the API refused).",
      labelNames: ["connection", "outcome"],
    },
    shipments: {
      type: "counter",
      name: "pim_sync_activation_shipments_total",
      help: "Shipment updates by connection and outcome: accepted, refused.",
      labelNames: ["connection", "outcome"],
    },
  });

  type Ended<OK extends boolean> = Extract<JobRunEnd, { ok: OK }>;
  /** What each job counts besides its runs; a job left out counts its runs only. */
  const succeeded: { readonly [N in ActivationJobName]?: (end: Ended<true>) => void } = {
    "activation.orders.pull"(end) {
      const report = end.result as PullReport;
      orders.inc({ connection: end.subject, outcome: "pulled" }, report.listed);
      orders.inc({ connection: end.subject, outcome: "delivered" }, report.emitted);
      orders.inc({ connection: end.subject, outcome: "refused" }, report.refused.length);
    },
    "activation.orders.resend"(end) {
      const report = end.result as ResendReport;
      orders.inc({ connection: end.subject, outcome: "resent" }, report.delivered.length);
      orders.inc({ connection: end.subject, outcome: "refused" }, report.refusedAgain.length);
    },
    "activation.offers.put"(end) {
      const report = end.result as OffersReport;
      offers.inc({ connection: end.subject, outcome: "sent" }, report.sent);
      offers.inc({ connection: end.subject, outcome: "skipped" }, report.skipped);
    },
    "activation.shipment.update"(end) {
      shipments.inc({ connection: end.subject, outcome: "accepted" });
    },
  };
  // A refusal of the API is a count of what it refused; an outage counts nothing.
  const failedPermanently: { readonly [N in ActivationJobName]?: (end: Ended<false>) => void } = {
    "activation.shipment.update": (end) => shipments.inc({ connection: end.subject, outcome: "refused" }),
    "activation.offers.put": (end) => offers.inc({ connection: end.subject, outcome: "refused" }, offerCount(end.data)),
  };
  const of = <T>(table: { readonly [N in ActivationJobName]?: T }, name: string): T | undefined =>
    Object.hasOwn(table, name) ? table[name as ActivationJobName] : undefined;

  return {
    runEnded(end) {
      if (end.ok) {
        runs.inc({ job: end.name, outcome: "ok" });
        of(succeeded, end.name)?.(end);
        return;
      }
      const permanent = classifyFailure(end.error).kind === "permanent";
      runs.inc({ job: end.name, outcome: permanent ? "failed_permanently" : "failed" });
      if (permanent) of(failedPermanently, end.name)?.(end);
    },
  };
}
