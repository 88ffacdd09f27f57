import { Counter, type Registry } from "prom-client";
import type { PullReport } from "../activation/pull-orders.js";
import type { OffersReport } from "../activation/put-offers.js";
import type { ResendReport } from "../activation/resend-refused.js";
import { classifyFailure } from "../jobs/classify-failure.js";
import type { ActivationObserver, ActivationRunEnd } from "../jobs/job-observer.js";

function offerCount(data: unknown): number {
  const offers = typeof data === "object" && data !== null ? (data as { offers?: unknown }).offers : undefined;
  return Array.isArray(offers) ? offers.length : 0;
}

/**
 * The Activation jobs' counters. `connection` is a channel connection id the API answered for
 * (a run against an id the account does not have fails before any count), so its values are
 * bounded by the account's connections; runs are counted by job name only.
 */
export function createActivationMetrics(registry: Registry): ActivationObserver {
  const runs = new Counter({
    name: "pim_sync_activation_runs_total",
    help: "Activation job runs (each attempt) by job name and outcome: ok, failed (will be retried), failed_permanently.",
    labelNames: ["job", "outcome"] as const,
    registers: [registry],
  });
  const orders = new Counter({
    name: "pim_sync_activation_orders_total",
    help: "Orders by connection and outcome: pulled (listed by the API), delivered (handed to the sink), refused (set aside), resent (a set-aside order delivered on request).",
    labelNames: ["connection", "outcome"] as const,
    registers: [registry],
  });
  const offers = new Counter({
    name: "pim_sync_activation_offers_total",
    help: "Offers by connection and outcome: sent (accepted by the API), skipped (unchanged since last accepted), refused (every offer of a put job that failed for good, e.g. a batch the API refused).",
    labelNames: ["connection", "outcome"] as const,
    registers: [registry],
  });
  const shipments = new Counter({
    name: "pim_sync_activation_shipments_total",
    help: "Shipment updates by connection and outcome: accepted, refused.",
    labelNames: ["connection", "outcome"] as const,
    registers: [registry],
  });

  function succeeded(end: Extract<ActivationRunEnd, { ok: true }>): void {
    const connection = end.connection;
    if (end.name === "activation.orders.pull") {
      const report = end.result as PullReport;
      orders.inc({ connection, outcome: "pulled" }, report.listed);
      orders.inc({ connection, outcome: "delivered" }, report.emitted);
      orders.inc({ connection, outcome: "refused" }, report.refused.length);
    } else if (end.name === "activation.orders.resend") {
      const report = end.result as ResendReport;
      orders.inc({ connection, outcome: "resent" }, report.delivered.length);
      orders.inc({ connection, outcome: "refused" }, report.refusedAgain.length);
    } else if (end.name === "activation.offers.put") {
      const report = end.result as OffersReport;
      offers.inc({ connection, outcome: "sent" }, report.sent);
      offers.inc({ connection, outcome: "skipped" }, report.skipped);
    } else {
      shipments.inc({ connection, outcome: "accepted" });
    }
  }

  function failed(end: Extract<ActivationRunEnd, { ok: false }>): void {
    const permanent = classifyFailure(end.error).kind === "permanent";
    runs.inc({ job: end.name, outcome: permanent ? "failed_permanently" : "failed" });
    // A refusal of the API is a count of what it refused; an outage counts nothing.
    if (!permanent) return;
    if (end.name === "activation.shipment.update") shipments.inc({ connection: end.connection, outcome: "refused" });
    if (end.name === "activation.offers.put") offers.inc({ connection: end.connection, outcome: "refused" }, offerCount(end.data));
  }

  return {
    activationRunEnded(end) {
      if (end.ok) {
        runs.inc({ job: end.name, outcome: "ok" });
        succeeded(end);
      } else failed(end);
    },
  };
}
