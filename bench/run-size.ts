/**
 * One catalogue size, end to end: generate the catalogue, count its minimal requests, start the
 * simulators on it (real budgets: their defaults; the chosen latency), then run the scenarios in
 * order against one state folder, and tear everything down.
 */
import { startSimulatorsFor } from "./catalog/start-sized-simulators.js";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { SimCatalog } from "../sim/catalog/catalog-file.js";
import { CATALOG_SIZES, type CatalogSizeName } from "./catalog/catalog-sizes.js";
import { BENCH_PROJECT, materializeCatalog } from "./catalog/generate-catalog.js";
import { hashCatalog } from "./catalog/hash-catalog.js";
import { planCatalog, summarizePlan } from "./catalog/plan-catalog.js";
import { countMinimalRequests } from "./floor/count-minimal-requests.js";
import type { CatalogFacts, SizeResult } from "./report/bench-results.js";
import { collectGarbage } from "./collect-garbage.js";
import { mergeFigures } from "./report/figures.js";
import { runAddOptionsScenario } from "./scenarios/add-options-scenario.js";
import { runAddOptionsLatencyOver20Scenario, runAddOptionsLatencyScenario } from "./scenarios/add-options-latency-scenario.js";
import { runFullSyncScenario } from "./scenarios/full-sync-scenario.js";
import { runNoopResyncScenario } from "./scenarios/noop-resync-scenario.js";
import { runQueueOverheadScenario } from "./scenarios/queue-overhead-scenario.js";
import { runFleetScenario } from "./scenarios/fleet-scenario.js";
import { runCapacityOfSizeScenario } from "./scenarios/capacity-scenario.js";
import { runStartupOfRunScenario } from "./scenarios/startup-scenario.js";
import { createSyncRunner } from "./scenarios/create-sync-runner.js";
import type { Scenario, ScenarioContext, ScenarioResult, WorkerScenarioOptions } from "./scenarios/scenario.js";

/** In this order: the re-sync relies on the state the first sync leaves; capacity changes the PIM's. */
export const SCENARIOS: readonly Scenario[] = [
  runFullSyncScenario,
  runNoopResyncScenario,
  runAddOptionsScenario,
  runAddOptionsLatencyScenario,
  runAddOptionsLatencyOver20Scenario,
  runQueueOverheadScenario,
  runFleetScenario,
  runStartupOfRunScenario,
  // Last: it relabels options in the PIM simulator's state.
  runCapacityOfSizeScenario,
];

export interface RunSizeOptions {
  readonly size: CatalogSizeName;
  readonly seed: number;
  readonly latencyMs: number;
  readonly progress: (message: string) => void;
  readonly worker: WorkerScenarioOptions;
}

export async function runSize(options: RunSizeOptions): Promise<SizeResult> {
  const { size, seed, latencyMs } = options;
  const progress = (message: string): void => options.progress(`[${size}] ${message}`);
  const ranAt = new Date().toISOString();

  const startedAt = performance.now();
  const plan = planCatalog(CATALOG_SIZES[size], seed);
  let catalog: SimCatalog | null = materializeCatalog(plan);
  const generateS = (performance.now() - startedAt) / 1000;
  const planSummary = summarizePlan(plan);
  const facts: CatalogFacts = {
    seed,
    sha256: hashCatalog(catalog),
    attributes: planSummary.attributes,
    select_attributes: planSummary.selectAttributes,
    reference_entity_attributes: planSummary.referenceEntityAttributes,
    options: planSummary.options,
    max_options: planSummary.maxOptions,
    attributes_over_20k: planSummary.attributesOver20k,
    records: planSummary.records,
    collections: catalog.service.collections.length,
    generate_s: Math.round(generateS * 1000) / 1000,
  };
  const minimal = {
    firstSync: countMinimalRequests(catalog, { project: BENCH_PROJECT, withWrites: true }),
    resync: countMinimalRequests(catalog, { project: BENCH_PROJECT, withWrites: false }),
  };
  progress(
    `catalogue: ${facts.attributes} attributes, ${facts.options} options, ${facts.records} records, ${facts.collections} collections ` +
      `(generated in ${facts.generate_s} s); minimal requests: PIM ${minimal.firstSync.pim.total}, service ${minimal.firstSync.service.total}`,
  );

  const { pim, service } = await startSimulatorsFor(catalog, latencyMs);
  // The simulators hold their own copies: drop ours so the parent does not keep two 1M-option catalogues.
  catalog = null;
  collectGarbage();

  const stateDir = await mkdtemp(join(tmpdir(), "pim-sync-bench-"));
  const results: ScenarioResult[] = [];
  try {
    const context: ScenarioContext = {
      size,
      latencyMs,
      minimal,
      pim,
      service,
      progress,
      runSync: createSyncRunner({ pim, service, project: BENCH_PROJECT, stateDir, progress }),
      worker: options.worker,
    };
    for (const scenario of SCENARIOS) results.push(await scenario(context));
  } finally {
    await Promise.all([service.close(), pim.close()]);
    await rm(stateDir, { recursive: true, force: true });
  }

  return {
    size,
    ran_at: ranAt,
    catalog: facts,
    figures: mergeFigures(results.map((result) => result.figures)),
    measurements: Object.assign({}, ...results.map((result) => result.measurements)) as SizeResult["measurements"],
    notes: [...new Set(results.flatMap((result) => (result.note === null ? [] : [result.note])))],
  };
}
