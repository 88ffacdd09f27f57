/** One measured sync against its floor: the numbers both sync scenarios report. */
import type { MinimalRequests } from "../floor/count-minimal-requests.js";
import { computeFloor, type Floor } from "../floor/compute-floor.js";
import { round } from "../report/round.js";
import type { MeasurementGroup, SyncRun } from "./scenario.js";

export interface SyncRunFigures {
  readonly floor: Floor;
  /** Wall time (process included) / floor. */
  readonly ratio: number;
  /** Made / minimal, the worse of the two upstreams. */
  readonly requestsRatio: number;
  readonly measurements: MeasurementGroup;
}

export function measureSyncRun(run: SyncRun, minimal: MinimalRequests, latencyMs: number): SyncRunFigures {
  const floor = computeFloor({ pim: minimal.pim.total, service: minimal.service.total }, latencyMs);
  const floorMs = floor.seconds * 1000;
  const pimRatio = run.pim.requests / minimal.pim.total;
  const serviceRatio = run.service.requests / minimal.service.total;
  const { summary } = run.child;
  return {
    floor,
    ratio: run.wallMs / floorMs,
    requestsRatio: Math.max(pimRatio, serviceRatio),
    measurements: {
      wall_s: seconds(run.wallMs),
      sync_s: seconds(run.child.durationMs),
      floor_s: seconds(floorMs),
      floor_bound_by: floor.boundBy,
      pim_floor_s: round(floor.pimSeconds, 3),
      service_floor_s: round(floor.serviceSeconds, 3),
      ratio: round(run.wallMs / floorMs, 4),
      ratio_sync_only: round(run.child.durationMs / floorMs, 4),
      pim_requests: run.pim.requests,
      pim_minimal: minimal.pim.total,
      pim_ratio: round(pimRatio, 4),
      pim_429: run.pim.rateLimited,
      pim_max_in_flight: run.pim.maxInFlight,
      service_requests: run.service.requests,
      service_minimal: minimal.service.total,
      service_ratio: round(serviceRatio, 4),
      service_429: run.service.rateLimited,
      service_writes: run.service.writes,
      pim_writes: run.pim.writes,
      client_retries: summary.requests.pim.retries + summary.requests.service.retries,
      collections_written: summary.written,
      collections_unchanged: summary.unchanged,
      peak_rss_mb: round(run.child.maxRssMb, 1),
      peak_heap_used_mb: round(run.child.memory.heapUsedMb, 1),
      peak_heap_total_mb: round(run.child.memory.heapTotalMb, 1),
      peak_external_mb: round(run.child.memory.externalMb, 1),
      child_log_lines: run.childLogLines,
      child_cpu_s: seconds(run.child.cpuMs),
      simulators_cpu_s: seconds(run.simulatorsCpuMs),
      load_average_1m: round(run.loadAverage, 2),
      startup_s: seconds(run.timeline.startupMs),
      prefix_s: run.timeline.prefixMs === null ? null : seconds(run.timeline.prefixMs),
      shutdown_s: seconds(run.timeline.shutdownMs),
      pim_sequential_tail_s: seconds(run.timeline.pimSequentialTailMs),
      pim_rate: round(run.timeline.pimRate, 1),
      pim_mean_in_flight: round(run.timeline.pimMeanInFlight, 2),
      pim_mean_served_ms: round(run.timeline.pimMeanServedMs, 1),
      pim_tightest_window_ms: roundOrNull(run.timeline.pimTightestWindowMs),
      service_tightest_window_ms: roundOrNull(run.timeline.serviceTightestWindowMs),
    },
  };
}

/** A run whose sync failed measures nothing worth reporting: stop with its reasons. */
export function assertSyncSucceeded(run: SyncRun, label: string): void {
  const { summary } = run.child;
  if (summary.failures > 0 || summary.missing > 0) {
    throw new Error(
      `${label}: ${summary.failures} failure(s), ${summary.missing} missing collection(s): ${summary.failureSamples.join(" | ")}`,
    );
  }
}

function roundOrNull(value: number | null): number | null {
  return value === null ? null : round(value, 1);
}

function seconds(ms: number): number {
  return round(ms / 1000, 3);
}
