/**
 * `npm run bench -- --scenario history`: the cost of the change history (issue 22). First syncs
 * of one catalogue, each in its own child process and fresh state folder, against the same
 * simulators, alternately without and with the history (a file under the state folder, as `sync
 * --once` without Redis records it; a worker's XADD carries the same bytes). The runs go in
 * pairs whose order alternates (without-with, with-without, …) so that a machine whose load
 * drifts does not favour one side; the figures are the medians, the load is reported beside them.
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startConfigServiceSimulator } from "../../sim/config-service/config-service-simulator.js";
import { startPimSimulator } from "../../sim/pim/pim-simulator.js";
import { CATALOG_SIZES, type CatalogSizeName } from "../catalog/catalog-sizes.js";
import { BENCH_PROJECT, materializeCatalog } from "../catalog/generate-catalog.js";
import { planCatalog } from "../catalog/plan-catalog.js";
import { collectGarbage } from "../collect-garbage.js";
import { round } from "../report/round.js";
import { runSyncChild, type ChildRun } from "./run-sync-child.js";

/** As between the main bench's runs: the simulators' one-second windows must empty first. */
const SETTLE_MS = 1_500;
export const HISTORY_OVERHEAD_TARGET = 1.05;

type Mode = "without" | "with";

export interface HistoryRun {
  readonly pair: number;
  readonly mode: Mode;
  readonly wall_s: number;
  readonly sync_only_s: number;
  readonly cpu_s: number;
  readonly peak_rss_mb: number;
  readonly history_mb: number | null;
  /** The machine's 1-minute load average when the run started and when it ended. */
  readonly load: readonly [number, number];
}

export interface HistoryOverheadResult {
  readonly size: CatalogSizeName;
  readonly latency_ms: number;
  readonly pairs: number;
  readonly figures: { readonly history_overhead_ratio: number };
  readonly target: string;
  /** Medians over the runs of each side; ratios are medians of the pairs' ratios. */
  readonly medians: {
    readonly wall_s: { readonly without: number; readonly with: number; readonly ratio: number };
    readonly sync_only_s: { readonly without: number; readonly with: number; readonly ratio: number };
    readonly cpu_s: { readonly without: number; readonly with: number; readonly ratio: number };
    readonly peak_rss_mb: { readonly without: number; readonly with: number };
    readonly history_mb: number;
    readonly load_1m: number;
  };
  readonly runs: readonly HistoryRun[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}

export async function measureHistoryOverhead(options: {
  readonly size: CatalogSizeName;
  readonly pairs: number;
  readonly latencyMs: number;
  readonly seed: number;
  readonly progress: (message: string) => void;
}): Promise<HistoryOverheadResult> {
  const { size, pairs, latencyMs, progress } = options;
  const catalog = materializeCatalog(planCatalog(CATALOG_SIZES[size], options.seed));
  const pim = await startPimSimulator({ catalog: catalog.pim, latencyMs });
  const service = await startConfigServiceSimulator({ catalog: catalog.service, pim, latencyMs });
  collectGarbage();
  const runs: HistoryRun[] = [];
  try {
    for (let pair = 0; pair < pairs; pair += 1) {
      const order: readonly Mode[] = pair % 2 === 0 ? ["without", "with"] : ["with", "without"];
      for (const mode of order) {
        const stateDir = await mkdtemp(join(tmpdir(), "pim-sync-bench-history-"));
        try {
          await sleep(SETTLE_MS);
          progress(`[${size}] pair ${pair + 1}/${pairs}: first sync ${mode} history (load ${loadavg()[0]?.toFixed(2) ?? "?"})…`);
          const loadBefore = loadavg()[0] ?? 0;
          const run: ChildRun = await runSyncChild({
            pimUrl: pim.url,
            serviceUrl: service.url,
            project: BENCH_PROJECT,
            stateDir,
            history: mode === "with",
          });
          const loadAfter = loadavg()[0] ?? 0;
          if (run.result.summary.failures > 0)
            throw new Error(`the sync ${mode} history failed: ${run.result.summary.failureSamples.join("; ")}`);
          const historyBytes = mode === "with" ? (await stat(join(stateDir, `project-${BENCH_PROJECT}`, "history.ndjson"))).size : null;
          runs.push({
            pair,
            mode,
            wall_s: round(run.wallMs / 1000, 3),
            sync_only_s: round(run.result.durationMs / 1000, 3),
            cpu_s: round(run.result.cpuMs / 1000, 3),
            peak_rss_mb: round(run.result.maxRssMb, 1),
            history_mb: historyBytes === null ? null : round(historyBytes / 1024 / 1024, 2),
            load: [round(loadBefore, 2), round(loadAfter, 2)],
          });
          progress(
            `[${size}] ${mode}: ${(run.wallMs / 1000).toFixed(2)} s wall, ${(run.result.cpuMs / 1000).toFixed(2)} s CPU, ${run.result.maxRssMb.toFixed(0)} MB peak RSS`,
          );
        } finally {
          await rm(stateDir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    await Promise.all([service.close(), pim.close()]);
  }
  const side = (mode: Mode, pick: (run: HistoryRun) => number): number => median(runs.filter((run) => run.mode === mode).map(pick));
  // Each pair ran close together in time: its ratio is less exposed to the load's drift than a ratio of medians.
  const pairRatio = (pick: (run: HistoryRun) => number): number =>
    round(
      median(
        Array.from({ length: pairs }, (_, pair) => {
          const of = (mode: Mode) => runs.find((run) => run.pair === pair && run.mode === mode);
          const [without, withHistory] = [of("without"), of("with")];
          return without && withHistory ? pick(withHistory) / pick(without) : Number.NaN;
        }),
      ),
      4,
    );
  const measured = (pick: (run: HistoryRun) => number) => ({
    without: round(side("without", pick), 3),
    with: round(side("with", pick), 3),
    ratio: pairRatio(pick),
  });
  const wall = measured((run) => run.wall_s);
  return {
    size,
    latency_ms: latencyMs,
    pairs,
    figures: { history_overhead_ratio: wall.ratio },
    target: `<= ${HISTORY_OVERHEAD_TARGET}`,
    medians: {
      wall_s: wall,
      sync_only_s: measured((run) => run.sync_only_s),
      cpu_s: measured((run) => run.cpu_s),
      peak_rss_mb: {
        without: round(
          side("without", (run) => run.peak_rss_mb),
          1,
        ),
        with: round(
          side("with", (run) => run.peak_rss_mb),
          1,
        ),
      },
      history_mb: round(
        side("with", (run) => run.history_mb ?? Number.NaN),
        2,
      ),
      load_1m: round(median(runs.flatMap((run) => run.load)), 2),
    },
    runs,
  };
}
