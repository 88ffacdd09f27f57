/**
 * The headline figures, their targets, and how a figure is summarised across sizes. One table
 * drives the JSON keys, the printed table and the met/missed verdicts, so they cannot disagree.
 */
import type { CatalogSizeName } from "../catalog/catalog-sizes.js";

export const FIGURE_KEYS = [
  "full_sync_ratio",
  "requests_ratio",
  "noop_writes",
  "noop_ratio",
  "peak_rss_mb",
  "add_options_ratio",
  "add_options_service_calls",
  "add_options_latency_p95_ms",
  "queue_overhead_ratio",
  "fleet_429s",
  "fleet_peak_service_rps",
  "fleet_peak_pim_in_flight",
  "fleet_ratio",
  "limiter_overhead_us_p50",
  "limiter_overhead_us_p99",
  "fair_small_job_wait_ms",
  "redis_bytes_per_project",
  "redis_bytes_per_event",
  "redis_keys_per_event",
  "startup_version_ratio",
  "startup_jobs_list_ratio",
  "startup_plan_ratio",
] as const;

export type FigureKey = (typeof FIGURE_KEYS)[number];
export type Figures = Readonly<Record<FigureKey, number | null>>;

export interface FigureSpec {
  /** What the figure is, in a few words. */
  readonly label: string;
  /** The target as shown, or null when the issue sets none. */
  readonly target: string | null;
  readonly met: ((value: number) => boolean) | null;
  /** Which end is bad: the summary of several values keeps the worst one. */
  readonly worse: "higher" | "lower";
  /** Decimals shown in the table. */
  readonly decimals: number;
}

export const FIGURES: Readonly<Record<FigureKey, FigureSpec>> = {
  full_sync_ratio: { label: "full first sync, wall / floor", target: "<= 1.15", met: (v) => v <= 1.15, worse: "higher", decimals: 3 },
  requests_ratio: {
    label: "requests made / minimal (worst upstream)",
    target: "<= 1.01",
    met: (v) => v <= 1.01,
    worse: "higher",
    decimals: 3,
  },
  noop_writes: { label: "no-change re-sync: writes", target: "= 0", met: (v) => v === 0, worse: "higher", decimals: 0 },
  noop_ratio: { label: "no-change re-sync, wall / read floor", target: "<= 1.10", met: (v) => v <= 1.1, worse: "higher", decimals: 3 },
  peak_rss_mb: {
    label: "peak RSS of the sync process (MB)",
    target: "<= 256 (option-heavy)",
    met: (v) => v <= 256,
    worse: "higher",
    decimals: 1,
  },
  add_options_ratio: {
    label: "1,000 add-options through the worker, wall / one-call-per-addition floor",
    target: "<= 0.1",
    met: (v) => v <= 0.1,
    worse: "higher",
    decimals: 3,
  },
  add_options_service_calls: {
    label: "add-options calls for those 1,000 additions (20 collections)",
    target: null,
    met: null,
    worse: "higher",
    decimals: 0,
  },
  add_options_latency_p95_ms: {
    label: "add-options one every 50 ms: enqueue to completed, p95 (ms)",
    target: "< 2000",
    met: (v) => v < 2000,
    worse: "higher",
    decimals: 0,
  },
  queue_overhead_ratio: {
    label: "no-op jobs/s, pim-sync worker / bare BullMQ worker (concurrency 1)",
    target: ">= 0.90",
    met: (v) => v >= 0.9,
    worse: "lower",
    decimals: 3,
  },
  fleet_429s: {
    label: "fleet (4 processes x 2, 16 projects, one account and connection): 429 answers",
    target: "= 0",
    met: (v) => v === 0,
    worse: "higher",
    decimals: 0,
  },
  fleet_peak_service_rps: {
    label: "fleet: most service requests in any 1,000 ms",
    target: "<= 10",
    met: (v) => v <= 10,
    worse: "higher",
    decimals: 0,
  },
  fleet_peak_pim_in_flight: {
    label: "fleet: most PIM calls in flight for the connection",
    target: "<= 4",
    met: (v) => v <= 4,
    worse: "higher",
    decimals: 0,
  },
  fleet_ratio: {
    label: "fleet: wall / floor of the shared budgets for the requests made",
    target: "<= 1.15",
    met: (v) => v <= 1.15,
    worse: "higher",
    decimals: 3,
  },
  limiter_overhead_us_p50: {
    label: "shared limiter, one PIM call's budgets through Redis, p50 (us)",
    target: null,
    met: null,
    worse: "higher",
    decimals: 0,
  },
  limiter_overhead_us_p99: {
    label: "shared limiter, one PIM call's budgets through Redis, p99 (us)",
    target: null,
    met: null,
    worse: "higher",
    decimals: 0,
  },
  fair_small_job_wait_ms: {
    label: "small add-options job during a large sync: worst latency - median alone (ms)",
    target: null,
    met: null,
    worse: "higher",
    decimals: 0,
  },
  redis_bytes_per_project: {
    label: "Redis bytes a project keeps after 30 days (first sync + runs and changes kept; docs/capacity.md)",
    target: null,
    met: null,
    worse: "higher",
    decimals: 0,
  },
  redis_bytes_per_event: {
    label: "Redis bytes one PIM event leaves (each synced alone; BullMQ's capped job records included)",
    target: null,
    met: null,
    worse: "higher",
    decimals: 0,
  },
  redis_keys_per_event: {
    label: "Redis keys one PIM event leaves (each synced alone; BullMQ's capped job records included)",
    target: null,
    met: null,
    worse: "higher",
    decimals: 2,
  },
  startup_version_ratio: {
    label: "pim-sync --version, spawn to exit / bare node -e '' (medians)",
    target: "<= 2",
    met: (v) => v <= 2,
    worse: "higher",
    decimals: 2,
  },
  startup_jobs_list_ratio: {
    label: "pim-sync jobs list (no jobs), spawn to exit / bare node -e ''",
    target: "<= 3",
    met: (v) => v <= 3,
    worse: "higher",
    decimals: 2,
  },
  startup_plan_ratio: {
    label: "pim-sync plan, spawn to its first request / bare node -e ''",
    target: "<= 3",
    met: (v) => v <= 3,
    worse: "higher",
    decimals: 2,
  },
};

export function emptyFigures(): Record<FigureKey, number | null> {
  return Object.fromEntries(FIGURE_KEYS.map((key) => [key, null])) as Record<FigureKey, number | null>;
}

/** The worse of two values of one figure; null only when both are. */
export function worseOf(key: FigureKey, a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return FIGURES[key].worse === "higher" ? Math.max(a, b) : Math.min(a, b);
}

/** Several partial figure sets (scenarios of one size) as one, keeping the worse value per key. */
export function mergeFigures(parts: readonly Partial<Record<FigureKey, number | null>>[]): Figures {
  const merged = emptyFigures();
  for (const part of parts) {
    for (const key of FIGURE_KEYS) merged[key] = worseOf(key, merged[key], part[key] ?? null);
  }
  return merged;
}

/**
 * Across sizes: the worst value of each figure, except the peak RSS, whose target is about the
 * option-heavy catalogue: that size's value when it ran, else the highest.
 */
export function summarizeAcrossSizes(sizes: Partial<Record<CatalogSizeName, { readonly figures: Figures }>>): Figures {
  const summary = mergeFigures(Object.values(sizes).map((size) => size.figures));
  const optionHeavy = sizes["option-heavy"]?.figures.peak_rss_mb;
  return optionHeavy === undefined || optionHeavy === null ? summary : { ...summary, peak_rss_mb: optionHeavy };
}

export interface Verdict {
  readonly target: string | null;
  readonly value: number | null;
  /** null: not measured, or no target. */
  readonly met: boolean | null;
}

export function verdictsOf(figures: Figures): Record<FigureKey, Verdict> {
  return Object.fromEntries(
    FIGURE_KEYS.map((key) => {
      const spec = FIGURES[key];
      const value = figures[key];
      return [key, { target: spec.target, value, met: value === null || spec.met === null ? null : spec.met(value) }];
    }),
  ) as Record<FigureKey, Verdict>;
}
