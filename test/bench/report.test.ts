import { describe, expect, it } from "vitest";
import { assembleResults, mergeResults } from "../../bench/report/assemble-results.js";
import { benchResultsSchema, type SizeResult } from "../../bench/report/bench-results.js";
import { emptyFigures, mergeFigures, summarizeAcrossSizes, verdictsOf, type Figures } from "../../bench/report/figures.js";
import { renderResults, renderRows } from "../../bench/report/render-table.js";

const machine = { cores: 2, cpu: "test cpu", memory_gb: 4, node: "v20.20.2", platform: "linux" };

function figures(values: Partial<Figures>): Figures {
  return { ...emptyFigures(), ...values };
}

function sizeResult(size: SizeResult["size"], values: Partial<Figures>): SizeResult {
  return {
    size,
    ran_at: "2026-11-22T10:00:00.000Z",
    catalog: {
      seed: 1,
      sha256: "abc",
      attributes: 100,
      select_attributes: 30,
      reference_entity_attributes: 3,
      options: 400,
      max_options: 40,
      attributes_over_20k: 0,
      records: 200,
      collections: 40,
      generate_s: 0.01,
    },
    figures: figures(values),
    measurements: { first_sync: { wall_s: 5, floor_s: 4.2, floor_bound_by: "service" } },
    notes: ["not measured yet: needs the worker (issue 3)"],
  };
}

describe("figures", () => {
  it("keeps the worse value of each figure, lower being worse for the queue overhead", () => {
    const merged = mergeFigures([
      { full_sync_ratio: 1.1, queue_overhead_ratio: 0.9 },
      { full_sync_ratio: 1.2, queue_overhead_ratio: 0.7, noop_writes: 0 },
      { full_sync_ratio: null },
    ]);
    expect(merged).toMatchObject({ full_sync_ratio: 1.2, queue_overhead_ratio: 0.7, noop_writes: 0, add_options_ratio: null });
  });

  it("summarises the peak RSS by the option-heavy size when it ran", () => {
    const sizes = { small: { figures: figures({ peak_rss_mb: 300 }) }, "option-heavy": { figures: figures({ peak_rss_mb: 200 }) } };
    expect(summarizeAcrossSizes(sizes).peak_rss_mb).toBe(200);
    expect(summarizeAcrossSizes({ small: sizes.small }).peak_rss_mb).toBe(300);
  });

  it("judges each figure against its target, and null when not measured", () => {
    const verdicts = verdictsOf(figures({ full_sync_ratio: 1.16, requests_ratio: 1.0, noop_writes: 0, peak_rss_mb: 256 }));
    expect(verdicts.full_sync_ratio.met).toBe(false);
    expect(verdicts.requests_ratio.met).toBe(true);
    expect(verdicts.noop_writes.met).toBe(true);
    expect(verdicts.peak_rss_mb.met).toBe(true);
    expect(verdicts.queue_overhead_ratio).toEqual({ target: ">= 0.90", value: null, met: null });
  });
});

describe("results", () => {
  const base = { date: "2026-11-22", generatedAt: "2026-11-22T10:00:00.000Z", latencyMs: 20, seed: 1, machine };

  it("puts the summary figures at the top level, by name, and validates against its schema", () => {
    const results = assembleResults({ ...base, sizes: { small: sizeResult("small", { full_sync_ratio: 1.05, noop_writes: 0 }) } });
    expect(results.full_sync_ratio).toBe(1.05);
    expect(results.add_options_ratio).toBeNull();
    expect(results.targets["full_sync_ratio"]?.met).toBe(true);
    expect(benchResultsSchema.parse(JSON.parse(JSON.stringify(results)) as unknown)).toEqual(results);
  });

  it("reads a results file written before the fleet figures existed, those figures as not measured", () => {
    const results = assembleResults({ ...base, sizes: { small: sizeResult("small", { full_sync_ratio: 1.05 }) } });
    const older = JSON.parse(JSON.stringify(results)) as Record<string, unknown> & {
      sizes: { small: { figures: Record<string, unknown> } };
    };
    for (const key of ["fleet_ratio", "fleet_429s", "fair_small_job_wait_ms"]) {
      delete older[key];
      delete older.sizes.small.figures[key];
    }
    const read = benchResultsSchema.parse(older);
    expect(read.fleet_ratio).toBeNull();
    expect(read.sizes.small?.figures.fair_small_job_wait_ms).toBeNull();
    expect(read.full_sync_ratio).toBe(1.05);
  });

  it("renders the fleet's figures against their targets and its measurements", () => {
    const small = {
      ...sizeResult("small", {
        fleet_429s: 0,
        fleet_peak_service_rps: 11,
        fleet_peak_pim_in_flight: 4,
        fleet_ratio: 1.1,
        limiter_overhead_us_p50: 400,
      }),
      measurements: { fleet: { processes: 4, concurrency: 2, projects: 16, wall_s: 24.6, floor_s: 22.4, floor_bound_by: "service" } },
    };
    const text = renderResults(assembleResults({ ...base, sizes: { small } }));
    expect(text).toMatch(/fleet_429s\s+= 0\s+0\s+0\s+met/);
    expect(text).toMatch(/fleet_peak_service_rps\s+<= 10\s+11\s+11\s+MISSED/);
    expect(text).toMatch(/fleet_peak_pim_in_flight\s+<= 4\s+4\s+4\s+met/);
    expect(text).toMatch(/fleet_ratio\s+<= 1\.15\s+1\.100\s+1\.100\s+met/);
    expect(text).toMatch(/limiter_overhead_us_p50\s+-\s+400\s+400\s+no target/);
    expect(text).toMatch(/fleet: wall s \/ floor s \(bound by\)\s+24\.6 \/ 22\.4 \(service\)/);
  });

  it("merges the same day's runs of other sizes, and only comparable ones", () => {
    const earlier = assembleResults({ ...base, sizes: { small: sizeResult("small", { full_sync_ratio: 1.3 }) } });
    const now = assembleResults({ ...base, sizes: { large: sizeResult("large", { full_sync_ratio: 1.05 }) } });
    const merged = mergeResults(earlier, now);
    expect(Object.keys(merged.sizes).sort()).toEqual(["large", "small"]);
    expect(merged.full_sync_ratio).toBe(1.3);
    expect(mergeResults({ ...earlier, latency_ms: 50 }, now)).toBe(now);
    expect(mergeResults(null, now)).toBe(now);
  });

  it("renders a figure table with nulls and verdicts", () => {
    const results = assembleResults({ ...base, sizes: { small: sizeResult("small", { full_sync_ratio: 1.2, noop_writes: 0 }) } });
    const text = renderResults(results);
    expect(text).toMatch(/full_sync_ratio\s+<= 1\.15\s+1\.200\s+1\.200\s+MISSED/);
    expect(text).toMatch(/queue_overhead_ratio\s+>= 0\.90\s+null\s+null\s+not measured/);
    expect(text).toContain("note: not measured yet: needs the worker (issue 3)");
  });

  it("renders the worker scenarios' measurements, and '-' for a size that did not run them", () => {
    const small = {
      ...sizeResult("small", {
        add_options_ratio: 1.05,
        add_options_service_calls: 1000,
        add_options_latency_p95_ms: 1500,
        queue_overhead_ratio: 0.7,
      }),
      measurements: {
        add_options: { jobs: 1000, attributes: 20, collections: 20, wall_s: 105, floor_s: 100, floor_bound_by: "service" },
        add_options_latency: { jobs: 400, p50_ms: 700, p95_ms: 1500, max_ms: 1900, batches: 30, service_add_options: 300 },
        queue_overhead: { pimsync_jobs_per_s: 2100, bare_c1_jobs_per_s: 3000, bare_c1_global_jobs_per_s: 2900, bare_c8_jobs_per_s: 6500 },
      },
    };
    const results = assembleResults({ ...base, sizes: { small, medium: sizeResult("medium", {}) } });
    const text = renderResults(results);
    expect(text).toMatch(/add_options_ratio\s+<= 0\.1\s+1\.050\s+null\s+1\.050\s+MISSED/);
    expect(text).toMatch(/add_options_service_calls\s+-\s+1000\s+null\s+1000\s+no target/);
    expect(text).toMatch(/add_options_latency_p95_ms\s+< 2000\s+1500\s+null\s+1500\s+met/);
    expect(text).toMatch(/add-options 1\/50 ms: p50 \/ p95 \/ max ms\s+700 \/ 1500 \/ 1900\s+-\n/);
    expect(text).toMatch(/queue_overhead_ratio\s+>= 0\.90\s+0\.700\s+null\s+0\.700\s+MISSED/);
    expect(text).toMatch(/add-options: wall s \/ floor s \(bound by\)\s+105 \/ 100 \(service\)\s+-\n/);
    expect(text).toMatch(/queue overhead: no-op jobs\/s pim-sync \/ bare c1 \/ bare c1 global 1 \/ bare c8\s+2100 \/ 3000 \/ 2900 \/ 6500/);
  });

  it("renders rows as aligned text or Markdown", () => {
    expect(
      renderRows(
        [
          ["a", "bb"],
          ["ccc", "d"],
        ],
        "text",
      ),
    ).toBe("a    bb\nccc  d");
    expect(
      renderRows(
        [
          ["a", "b|c"],
          ["1", "2"],
        ],
        "markdown",
      ),
    ).toBe("| a | b\\|c |\n| --- | --- |\n| 1 | 2 |");
  });
});
