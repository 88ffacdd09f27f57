/**
 * The events scenario's report: its figures against their targets, then the measurements behind
 * them, as plain text or Markdown (docs/benchmarks.md, "PIM events").
 */
import { EVENTS_TARGETS, type EventsResult } from "../scenarios/events-scenario.js";
import { renderRows, type TableStyle } from "./render-table.js";

function verdict(met: boolean | null): string {
  if (met === null) return "no target";
  return met ? "met" : "MISSED";
}

export function renderEventsResult(result: EventsResult, style: TableStyle): string {
  const { figures, setup, measurements: m } = result;
  const p95 = figures.event_to_service_p95_ms;
  const fullSyncRequests = m.verify_sync_pim_requests + m.verify_sync_service_requests;
  const heading =
    `PIM events: ${setup.size} catalogue (seed ${setup.seed}), latency ${setup.latency_ms} ms; ${setup.changes} option changes over ${setup.attributes} attributes ` +
    `(${setup.options_of_attributes} options, the largest ${setup.largest_attribute_options}) in ${setup.bursts} bursts ${setup.burst_interval_ms / 1000} s apart, window ${setup.window_ms} ms`;
  const figureRows = [
    ["figure", "target", "value", "verdict"],
    ["event_to_service_p50_ms", "-", String(figures.event_to_service_p50_ms), verdict(null)],
    [
      "event_to_service_p95_ms",
      `<= ${EVENTS_TARGETS.event_to_service_p95_ms}`,
      String(p95),
      verdict(p95 === null ? false : p95 <= EVENTS_TARGETS.event_to_service_p95_ms),
    ],
    ["requests_per_event", `- (a full sync: ${fullSyncRequests})`, String(figures.requests_per_event), verdict(null)],
    ["end_state_exact", "true", String(figures.end_state_exact), verdict(figures.end_state_exact)],
  ];
  const measurementRows = [
    ["measurement", "value"],
    ["event → service max ms", String(m.event_to_service_max_ms)],
    ["changes in the service / events answered 200", `${m.changes_written} / ${m.events_answered_200}`],
    ["targeted syncs (sync.events jobs)", String(m.event_sync_jobs)],
    ["events phase: s / PIM requests / service requests", `${m.events_phase_s} / ${m.events_pim_requests} / ${m.events_service_requests}`],
    ["events phase requests ÷ one full sync's", String(m.events_vs_full_sync_requests)],
    ["baseline full sync: s / PIM / service requests", `${m.full_sync_s} / ${m.full_sync_pim_requests} / ${m.full_sync_service_requests}`],
    [
      "verifying full sync: s / PIM / service requests / writes",
      `${m.verify_sync_s} / ${m.verify_sync_pim_requests} / ${m.verify_sync_service_requests} / ${m.verify_sync_service_writes}`,
    ],
    ["load average (1 min) along the run", m.load_average_1m.join(", ")],
  ];
  return [heading, "", renderRows(figureRows, style), "", renderRows(measurementRows, style)].join("\n");
}
