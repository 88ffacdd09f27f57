/**
 * `node dist/bench/history/history-overhead.js [--size option-heavy] [--latency-ms 20] [--json]`:
 * the cost of the change history (issue 22). Two first syncs of one catalogue, each in its own
 * child process and fresh state folder, against the same simulators: without the history, then
 * with it (a file under the state folder, as `sync --once` without Redis records it). The figure
 * is `history_overhead_ratio`: wall time with / without (target <= 1.05); the sync-only and CPU
 * ratios are reported beside it.
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { startConfigServiceSimulator } from "../../src/sim/config-service/config-service-simulator.js";
import { startPimSimulator } from "../../src/sim/pim/pim-simulator.js";
import { CATALOG_SIZE_NAMES, CATALOG_SIZES, type CatalogSizeName } from "../catalog/catalog-sizes.js";
import { BENCH_PROJECT, materializeCatalog } from "../catalog/generate-catalog.js";
import { planCatalog } from "../catalog/plan-catalog.js";
import { collectGarbage } from "../collect-garbage.js";
import { machineInfo } from "../report/machine-info.js";
import { round } from "../report/round.js";
import { runSyncChild, type ChildRun } from "../scenarios/run-sync-child.js";

const DEFAULT_SEED = 20261122;
/** As between the main bench's runs: the simulators' one-second windows must empty first. */
const SETTLE_MS = 1_500;
const TARGET = 1.05;

function progress(message: string): void {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { size: { type: "string", default: "option-heavy" }, "latency-ms": { type: "string", default: "20" }, json: { type: "boolean", default: false } } });
  const size = values.size as CatalogSizeName;
  if (!CATALOG_SIZE_NAMES.includes(size)) throw new Error(`--size must be one of ${CATALOG_SIZE_NAMES.join(", ")}, got '${values.size}'`);
  const latencyMs = Number(values["latency-ms"]);
  if (!Number.isFinite(latencyMs) || latencyMs < 0) throw new Error(`--latency-ms must be a number >= 0, got '${values["latency-ms"]}'`);

  const catalog = materializeCatalog(planCatalog(CATALOG_SIZES[size], DEFAULT_SEED));
  const pim = await startPimSimulator({ catalog: catalog.pim, latencyMs });
  const service = await startConfigServiceSimulator({ catalog: catalog.service, pim, latencyMs });
  collectGarbage();
  const runs: Record<"without" | "with", ChildRun> = {} as Record<"without" | "with", ChildRun>;
  let historyBytes = 0;
  try {
    for (const mode of ["without", "with"] as const) {
      const stateDir = await mkdtemp(join(tmpdir(), "pim-sync-bench-history-"));
      try {
        await sleep(SETTLE_MS);
        progress(`[${size}] first sync ${mode} history…`);
        runs[mode] = await runSyncChild({ pimUrl: pim.url, serviceUrl: service.url, project: BENCH_PROJECT, stateDir, history: mode === "with" });
        const run = runs[mode];
        if (run.result.summary.failures > 0) throw new Error(`the sync ${mode} history failed: ${run.result.summary.failureSamples.join("; ")}`);
        progress(`[${size}] ${mode}: ${(run.wallMs / 1000).toFixed(2)} s wall, ${(run.result.durationMs / 1000).toFixed(2)} s sync-only, ${(run.result.cpuMs / 1000).toFixed(2)} s CPU`);
        if (mode === "with") historyBytes = (await stat(join(stateDir, `project-${BENCH_PROJECT}`, "history.ndjson"))).size;
      } finally {
        await rm(stateDir, { recursive: true, force: true });
      }
    }
  } finally {
    await Promise.all([service.close(), pim.close()]);
  }
  const ratio = (pick: (run: ChildRun) => number): number => round(pick(runs.with) / pick(runs.without), 4);
  const report = {
    generated_at: new Date().toISOString(),
    machine: machineInfo(),
    size,
    latency_ms: latencyMs,
    figures: { history_overhead_ratio: ratio((run) => run.wallMs) },
    target: `<= ${TARGET}`,
    measurements: {
      wall_s: { without: round(runs.without.wallMs / 1000, 3), with: round(runs.with.wallMs / 1000, 3) },
      sync_only_s: { without: round(runs.without.result.durationMs / 1000, 3), with: round(runs.with.result.durationMs / 1000, 3), ratio: ratio((run) => run.result.durationMs) },
      cpu_s: { without: round(runs.without.result.cpuMs / 1000, 3), with: round(runs.with.result.cpuMs / 1000, 3), ratio: ratio((run) => run.result.cpuMs) },
      peak_rss_mb: { without: round(runs.without.result.maxRssMb, 1), with: round(runs.with.result.maxRssMb, 1) },
      history_file_mb: round(historyBytes / 1024 / 1024, 1),
    },
  };
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `history_overhead_ratio ${report.figures.history_overhead_ratio} (target ${report.target})\n${JSON.stringify(report.measurements, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`history overhead bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
