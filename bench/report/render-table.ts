/**
 * The results as two tables: the headline figures against their targets (one column per size,
 * the summary, the verdict), then the measurements behind them. Plain text for a terminal,
 * or Markdown for docs/benchmarks.md.
 */
import { CATALOG_SIZE_NAMES, type CatalogSizeName } from "../catalog/catalog-sizes.js";
import type { BenchResults, SizeResult } from "./bench-results.js";
import { FIGURE_KEYS, FIGURES, type FigureKey } from "./figures.js";

export type TableStyle = "text" | "markdown";

export function renderResults(results: BenchResults, style: TableStyle = "text"): string {
  const sizes = CATALOG_SIZE_NAMES.filter((name) => results.sizes[name] !== undefined);
  const m = results.machine;
  const heading =
    `pim-sync benchmark ${results.date}: latency ${results.latency_ms} ms, seed ${results.seed}; ` +
    `${m.cores} cores (${m.cpu}), ${m.memory_gb} GB, node ${m.node}, ${m.platform}`;
  const notes = [...new Set(sizes.flatMap((name) => results.sizes[name]?.notes ?? []))];
  return [
    heading,
    "",
    renderRows(figureRows(results, sizes), style),
    "",
    renderRows(detailRows(results, sizes), style),
    ...(notes.length > 0 ? ["", ...notes.map((note) => `note: ${note}`)] : []),
  ].join("\n");
}

function figureRows(results: BenchResults, sizes: readonly CatalogSizeName[]): string[][] {
  const header = ["figure", "target", ...sizes, "overall", "verdict"];
  const rows = FIGURE_KEYS.map((key) => {
    const spec = FIGURES[key];
    const verdict = results.targets[key];
    const overall = results[key];
    return [
      key,
      spec.target ?? "-",
      ...sizes.map((name) => formatFigure(key, results.sizes[name]?.figures[key] ?? null)),
      formatFigure(key, overall),
      verdictText(verdict?.met ?? null, overall, spec.target),
    ];
  });
  return [header, ...rows];
}

function verdictText(met: boolean | null, value: number | null, target: string | null): string {
  if (value === null) return "not measured";
  if (target === null || met === null) return "no target";
  return met ? "met" : "MISSED";
}

function formatFigure(key: FigureKey, value: number | null): string {
  return value === null ? "null" : value.toFixed(FIGURES[key].decimals);
}

/** A row of a scenario that runs under some sizes only: "-" for the others. */
function inGroup(group: string, read: (size: SizeResult) => string): (size: SizeResult) => string {
  return (size) => (size.measurements[group] === undefined ? "-" : read(size));
}

/** Measurement rows: label, then how to read it from a size's result. */
const DETAIL_ROWS: readonly (readonly [string, (size: SizeResult) => string])[] = [
  [
    "catalogue: attributes / select / ref. entity",
    (s) => `${s.catalog.attributes} / ${s.catalog.select_attributes} / ${s.catalog.reference_entity_attributes}`,
  ],
  [
    "catalogue: options (max, >=20k) / records",
    (s) => `${s.catalog.options} (${s.catalog.max_options}, ${s.catalog.attributes_over_20k}) / ${s.catalog.records}`,
  ],
  ["catalogue: collections", (s) => String(s.catalog.collections)],
  [
    "first sync: wall s / floor s (bound by)",
    (s) => `${m(s, "first_sync", "wall_s")} / ${m(s, "first_sync", "floor_s")} (${m(s, "first_sync", "floor_bound_by")})`,
  ],
  ["first sync: sync-only s / ratio", (s) => `${m(s, "first_sync", "sync_s")} / ${m(s, "first_sync", "ratio_sync_only")}`],
  ["first sync: PIM requests made / minimal", (s) => `${m(s, "first_sync", "pim_requests")} / ${m(s, "first_sync", "pim_minimal")}`],
  [
    "first sync: service requests made / minimal",
    (s) => `${m(s, "first_sync", "service_requests")} / ${m(s, "first_sync", "service_minimal")}`,
  ],
  ["first sync: 429s PIM / service", (s) => `${m(s, "first_sync", "pim_429")} / ${m(s, "first_sync", "service_429")}`],
  [
    "first sync: startup s / prefix s / PIM sequential tail s",
    (s) => `${m(s, "first_sync", "startup_s")} / ${m(s, "first_sync", "prefix_s")} / ${m(s, "first_sync", "pim_sequential_tail_s")}`,
  ],
  [
    "first sync: PIM req/s / mean in flight / mean served ms",
    (s) => `${m(s, "first_sync", "pim_rate")} / ${m(s, "first_sync", "pim_mean_in_flight")} / ${m(s, "first_sync", "pim_mean_served_ms")}`,
  ],
  [
    "first sync: tightest window ms PIM / service",
    (s) => `${m(s, "first_sync", "pim_tightest_window_ms")} / ${m(s, "first_sync", "service_tightest_window_ms")}`,
  ],
  [
    "first sync: CPU s child / simulators (load 1m)",
    (s) => `${m(s, "first_sync", "child_cpu_s")} / ${m(s, "first_sync", "simulators_cpu_s")} (${m(s, "first_sync", "load_average_1m")})`,
  ],
  ["first sync: peak RSS / heap used / heap total / external MB", (s) => memoryText(s, "first_sync")],
  [
    "re-sync: wall s / read floor s (bound by)",
    (s) => `${m(s, "resync", "wall_s")} / ${m(s, "resync", "floor_s")} (${m(s, "resync", "floor_bound_by")})`,
  ],
  ["re-sync: sync-only s / ratio", (s) => `${m(s, "resync", "sync_s")} / ${m(s, "resync", "ratio_sync_only")}`],
  ["re-sync: PIM requests made / minimal", (s) => `${m(s, "resync", "pim_requests")} / ${m(s, "resync", "pim_minimal")}`],
  ["re-sync: service requests made / minimal", (s) => `${m(s, "resync", "service_requests")} / ${m(s, "resync", "service_minimal")}`],
  [
    "re-sync: startup s / prefix s / PIM sequential tail s",
    (s) => `${m(s, "resync", "startup_s")} / ${m(s, "resync", "prefix_s")} / ${m(s, "resync", "pim_sequential_tail_s")}`,
  ],
  [
    "re-sync: PIM req/s / mean in flight / mean served ms",
    (s) => `${m(s, "resync", "pim_rate")} / ${m(s, "resync", "pim_mean_in_flight")} / ${m(s, "resync", "pim_mean_served_ms")}`,
  ],
  [
    "re-sync: tightest window ms PIM / service",
    (s) => `${m(s, "resync", "pim_tightest_window_ms")} / ${m(s, "resync", "service_tightest_window_ms")}`,
  ],
  [
    "re-sync: CPU s child / simulators (load 1m)",
    (s) => `${m(s, "resync", "child_cpu_s")} / ${m(s, "resync", "simulators_cpu_s")} (${m(s, "resync", "load_average_1m")})`,
  ],
  ["re-sync: peak RSS / heap used / heap total / external MB", (s) => memoryText(s, "resync")],
  ["re-sync: writes", (s) => m(s, "resync", "service_writes")],
  [
    "add-options: jobs / attributes / collections",
    inGroup(
      "add_options",
      (s) => `${m(s, "add_options", "jobs")} / ${m(s, "add_options", "attributes")} / ${m(s, "add_options", "collections")}`,
    ),
  ],
  [
    "add-options: wall s / floor s (bound by)",
    inGroup(
      "add_options",
      (s) => `${m(s, "add_options", "wall_s")} / ${m(s, "add_options", "floor_s")} (${m(s, "add_options", "floor_bound_by")})`,
    ),
  ],
  [
    "add-options: jobs/s / mean ms per job",
    inGroup("add_options", (s) => `${m(s, "add_options", "jobs_per_s")} / ${m(s, "add_options", "mean_job_ms")}`),
  ],
  [
    "add-options: PIM requests made / minimal / 429s",
    inGroup(
      "add_options",
      (s) => `${m(s, "add_options", "pim_requests")} / ${m(s, "add_options", "pim_minimal")} / ${m(s, "add_options", "pim_429")}`,
    ),
  ],
  [
    "add-options: service requests made / minimal / 429s",
    inGroup(
      "add_options",
      (s) =>
        `${m(s, "add_options", "service_requests")} / ${m(s, "add_options", "service_minimal")} / ${m(s, "add_options", "service_429")}`,
    ),
  ],
  [
    "add-options: completed / failed / requeued",
    inGroup(
      "add_options",
      (s) => `${m(s, "add_options", "completed")} / ${m(s, "add_options", "failed")} / ${m(s, "add_options", "requeued")}`,
    ),
  ],
  [
    "add-options: merged floor s, one call per collection (bound by)",
    inGroup("add_options", (s) => `${m(s, "add_options", "merged_floor_s")} (${m(s, "add_options", "merged_floor_bound_by")})`),
  ],
  [
    "add-options: add-options calls made / accepted",
    inGroup("add_options", (s) => `${m(s, "add_options", "service_add_options")} / ${m(s, "add_options", "service_add_options_ok")}`),
  ],
  [
    "add-options 1/50 ms: p50 / p95 / max ms",
    inGroup(
      "add_options_latency",
      (s) =>
        `${m(s, "add_options_latency", "p50_ms")} / ${m(s, "add_options_latency", "p95_ms")} / ${m(s, "add_options_latency", "max_ms")}`,
    ),
  ],
  [
    "add-options 1/50 ms: jobs / collections / batches / add-options calls",
    inGroup("add_options_latency", (s) =>
      ["jobs", "collections", "batches", "service_add_options"].map((key) => m(s, "add_options_latency", key)).join(" / "),
    ),
  ],
  [
    "add-options 1/50 ms over 20 collections: p50 / p95 / max ms",
    inGroup("add_options_latency_20", (s) => ["p50_ms", "p95_ms", "max_ms"].map((key) => m(s, "add_options_latency_20", key)).join(" / ")),
  ],
  [
    "add-options 1/50 ms over 20 collections: jobs / batches / add-options calls",
    inGroup("add_options_latency_20", (s) =>
      ["jobs", "batches", "service_add_options"].map((key) => m(s, "add_options_latency_20", key)).join(" / "),
    ),
  ],
  [
    "queue overhead: no-op jobs/s pim-sync / bare c1 / bare c1 global 1 / bare c8",
    inGroup("queue_overhead", (s) =>
      ["pimsync_jobs_per_s", "bare_c1_jobs_per_s", "bare_c1_global_jobs_per_s", "bare_c8_jobs_per_s"]
        .map((key) => m(s, "queue_overhead", key))
        .join(" / "),
    ),
  ],
  [
    "queue overhead: ms per job pim-sync / bare c1",
    inGroup("queue_overhead", (s) => `${m(s, "queue_overhead", "pimsync_ms_per_job")} / ${m(s, "queue_overhead", "bare_c1_ms_per_job")}`),
  ],
  [
    "queue overhead: CPU ms per job pim-sync / bare c1",
    inGroup(
      "queue_overhead",
      (s) => `${m(s, "queue_overhead", "pimsync_cpu_ms_per_job")} / ${m(s, "queue_overhead", "bare_c1_cpu_ms_per_job")}`,
    ),
  ],
  ["queue overhead: ratio per round", inGroup("queue_overhead", (s) => m(s, "queue_overhead", "ratio_rounds"))],
  [
    "fleet: processes x concurrency / projects",
    inGroup("fleet", (s) => `${m(s, "fleet", "processes")} x ${m(s, "fleet", "concurrency")} / ${m(s, "fleet", "projects")}`),
  ],
  [
    "fleet: wall s / floor s (bound by)",
    inGroup("fleet", (s) => `${m(s, "fleet", "wall_s")} / ${m(s, "fleet", "floor_s")} (${m(s, "fleet", "floor_bound_by")})`),
  ],
  [
    "fleet: first service request s / service req/s while busy / after its last answer s",
    inGroup(
      "fleet",
      (s) =>
        `${m(s, "fleet", "first_service_request_s")} / ${m(s, "fleet", "service_rate_while_busy")} / ${m(s, "fleet", "after_last_service_answer_s")}`,
    ),
  ],
  [
    "fleet: requests PIM / service; 429s PIM / service",
    inGroup(
      "fleet",
      (s) =>
        `${m(s, "fleet", "pim_requests")} / ${m(s, "fleet", "service_requests")}; ${m(s, "fleet", "pim_429")} / ${m(s, "fleet", "service_429")}`,
    ),
  ],
  [
    "fleet: jobs per process; CPU s per process (load 1m)",
    inGroup(
      "fleet",
      (s) => `${m(s, "fleet", "jobs_per_process")}; ${m(s, "fleet", "cpu_s_per_process")} (${m(s, "fleet", "load_average_1m")})`,
    ),
  ],
  [
    "shared limiter per PIM call p50 / p99 us: Redis / in process",
    inGroup(
      "limiter_overhead",
      (s) =>
        `${m(s, "limiter_overhead", "redis_p50_us")} / ${m(s, "limiter_overhead", "redis_p99_us")}; ${m(s, "limiter_overhead", "process_p50_us")} / ${m(s, "limiter_overhead", "process_p99_us")}`,
    ),
  ],
  [
    "small job during a large sync: alone p50 / during p50 / during max ms (jobs)",
    inGroup(
      "fair_small_job",
      (s) =>
        `${m(s, "fair_small_job", "alone_p50_ms")} / ${m(s, "fair_small_job", "during_p50_ms")} / ${m(s, "fair_small_job", "during_max_ms")} (${m(s, "fair_small_job", "during_jobs")})`,
    ),
  ],
];

function detailRows(results: BenchResults, sizes: readonly CatalogSizeName[]): string[][] {
  const header = ["measurement", ...sizes];
  const rows = DETAIL_ROWS.map(([label, read]) => [
    label,
    ...sizes.map((name) => {
      const size = results.sizes[name];
      return size === undefined ? "-" : read(size);
    }),
  ]);
  return [header, ...rows];
}

function memoryText(size: SizeResult, group: string): string {
  return ["peak_rss_mb", "peak_heap_used_mb", "peak_heap_total_mb", "peak_external_mb"].map((key) => m(size, group, key)).join(" / ");
}

function m(size: SizeResult, group: string, key: string): string {
  const value = size.measurements[group]?.[key];
  return value === undefined || value === null ? "-" : String(value);
}

export function renderRows(rows: readonly (readonly string[])[], style: TableStyle): string {
  if (style === "markdown") {
    const [header = [], ...body] = rows;
    const line = (cells: readonly string[]): string => `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`;
    return [line(header), line(header.map(() => "---")), ...body.map(line)].join("\n");
  }
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows
    .map((row) =>
      row
        .map((cell, index) => cell.padEnd(widths[index] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
