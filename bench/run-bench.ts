/**
 * `npm run bench`: every requested size in turn (see run-size.ts), then the table or the JSON on
 * stdout and the results file. Progress goes to stderr so that `--json` output stays one object.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_HELP, BenchUsageError, parseBenchArgs, type BenchArgs } from "./parse-bench-args.js";
import { assembleResults } from "./report/assemble-results.js";
import { benchResultsSchema, type BenchResults, type SizeResult } from "./report/bench-results.js";
import { machineInfo } from "./report/machine-info.js";
import { renderResults } from "./report/render-table.js";
import { resultsDirectory, writeResults } from "./report/write-results.js";
import { collectGarbage } from "./collect-garbage.js";
import { runSize } from "./run-size.js";
import { runScaleScenario, type ScaleResult } from "./scale/scale-scenario.js";
import { measureQueueOverhead } from "./scenarios/queue-overhead-scenario.js";
import { measureFleet } from "./scenarios/fleet-scenario.js";
import { runEventsScenario } from "./scenarios/events-scenario.js";
import { runLargeFleetScenario } from "./scenarios/large-fleet-scenario.js";
import { renderEventsResult } from "./report/render-events-table.js";
import { measureHistoryOverhead } from "./scenarios/history-overhead-scenario.js";
import { runCapacityScenario } from "./scenarios/capacity-scenario.js";
import { BUILT_CLI_PATH, runStartupScenario, STARTUP_TARGETS } from "./scenarios/startup-scenario.js";
import type { ScenarioResult } from "./scenarios/scenario.js";
import { measureConsole } from "./scenarios/console-scenario.js";
import { FIGURES } from "./report/figures.js";
import { startSimulators } from "../sim/start-simulators.js";
import type { CatalogSizeName } from "./catalog/catalog-sizes.js";

function progress(message: string): void {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

function output(results: BenchResults, args: { readonly json: boolean; readonly markdown: boolean }): void {
  process.stdout.write(
    args.json ? `${JSON.stringify(results, null, 2)}\n` : `${renderResults(results, args.markdown ? "markdown" : "text")}\n`,
  );
}

async function run(args: Extract<BenchArgs, { kind: "run" }>): Promise<void> {
  const sizes: Partial<Record<CatalogSizeName, SizeResult>> = {};
  const startedAt = Date.now();
  for (const [index, size] of args.sizes.entries()) {
    sizes[size] = await runSize({
      size,
      seed: args.seed,
      latencyMs: args.latencyMs,
      progress,
      // The queue overhead does not depend on the catalogue: once per run, under its first size.
      worker: {
        redisUrl: args.redisUrl,
        addOptionsSize: args.addOptionsSize,
        measureQueueOverhead: index === 0,
        measureFleet: index === 0,
        measureOncePerRun: index === 0,
      },
    });
    collectGarbage();
  }
  const now = new Date();
  const results = assembleResults({
    date: now.toISOString().slice(0, 10),
    generatedAt: now.toISOString(),
    latencyMs: args.latencyMs,
    seed: args.seed,
    machine: machineInfo(),
    sizes,
  });
  progress(`done in ${Math.round((Date.now() - startedAt) / 1000)} s`);
  if (args.writeResults) {
    const { path, written } = await writeResults(results);
    const merged = Object.keys(written.sizes).length > Object.keys(results.sizes).length;
    progress(`results written to ${path}${merged ? " (merged with earlier sizes of today)" : ""}`);
  }
  output(results, args);
}

/** The built CLI next to this file (dist/bench/ → dist/src/cli/bin.js): the scale and events scenarios spawn workers. */
const CLI_PATH = fileURLToPath(new URL("../src/cli/bin.js", import.meta.url));

async function runScale(args: Extract<BenchArgs, { kind: "scale" }>): Promise<void> {
  const result: ScaleResult = await runScaleScenario({ redisUrl: args.redisUrl, latencyMs: args.latencyMs, cliPath: CLI_PATH, progress });
  const report = { generated_at: new Date().toISOString(), machine: machineInfo(), scale: result };
  if (args.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const lines = [
    `scale_efficiency ${result.figures.scale_efficiency}`,
    `slot_utilisation ${result.figures.slot_utilisation} (target >= ${result.targets.slot_utilisation})`,
    ...result.phases.map(
      (phase) =>
        `${phase.processes} process(es): ${phase.jobs} jobs in ${phase.window_s} s, ${phase.jobs_per_s} jobs/s, utilisation ${phase.slot_utilisation}, ` +
        `at most ${phase.max_running} running, jobs per process ${phase.jobs_per_process.join(" / ")}, CPU s ${phase.cpu_s.join(" / ")}`,
    ),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function runQueueOverhead(args: Extract<BenchArgs, { kind: "queue-overhead" }>): Promise<void> {
  const simulators = await startSimulators();
  let result: ScenarioResult;
  try {
    result = await measureQueueOverhead({
      redisUrl: args.redisUrl,
      pimUrl: simulators.pim.url,
      serviceUrl: simulators.service.url,
      progress,
    });
  } finally {
    await simulators.close();
  }
  const report = { generated_at: new Date().toISOString(), machine: machineInfo(), ...result };
  if (args.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const measured = result.measurements.queue_overhead ?? {};
  const lines = [
    `queue_overhead_ratio ${result.figures.queue_overhead_ratio ?? "not measured"} (target ${FIGURES.queue_overhead_ratio.target})`,
    ...Object.entries(measured).map(([key, value]) => `${key} ${value}`),
  ];
  if (result.note !== null && result.figures.queue_overhead_ratio === null) lines.push(result.note);
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** `group.key value` lines of a scenario's measurements, for the text output. */
function measurementLines(measurements: Readonly<Record<string, Readonly<Record<string, unknown>>>>): string[] {
  return Object.entries(measurements).flatMap(([group, values]) =>
    Object.entries(values).map(([key, value]) => `${group}.${key} ${String(value ?? "-")}`),
  );
}

async function runFleet(args: Extract<BenchArgs, { kind: "fleet" }>): Promise<void> {
  const result = await measureFleet({
    redisUrl: args.redisUrl,
    latencyMs: args.latencyMs,
    projects: args.projects,
    seed: args.seed,
    progress,
  });
  const report = { generated_at: new Date().toISOString(), machine: machineInfo(), latency_ms: args.latencyMs, ...result };
  if (args.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const figures = Object.entries(result.figures).map(([key, value]) => {
    const spec = FIGURES[key as keyof typeof FIGURES];
    const verdict = value === null || value === undefined || spec.met === null ? "" : spec.met(value) ? " met" : " MISSED";
    return `${key} ${value ?? "not measured"}${spec.target === null ? "" : ` (target ${spec.target})${verdict}`}`;
  });
  const measured = measurementLines(result.measurements);
  process.stdout.write(`${[...figures, ...measured].join("\n")}\n`);
}

async function runLargeFleet(args: Extract<BenchArgs, { kind: "large-fleet" }>): Promise<void> {
  const startedAt = Date.now();
  const result = await runLargeFleetScenario({
    latencyMs: args.latencyMs,
    projects: args.projects,
    seed: args.seed,
    // The bundle, as the image and `bin` start a worker: its start-up CPU is one of the figures.
    cliPath: BUILT_CLI_PATH,
    progress,
  });
  progress(`done in ${Math.round((Date.now() - startedAt) / 1000)} s`);
  const report = { generated_at: new Date().toISOString(), machine: machineInfo(), latency_ms: args.latencyMs, seed: args.seed, ...result };
  if (args.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const verdicts: Readonly<Record<string, { readonly target: string; readonly met: boolean | null }>> = result.verdicts;
  const figures = Object.entries(result.figures).map(([key, value]) => {
    const verdict = verdicts[key];
    const judged =
      verdict === undefined ? "" : ` (target ${verdict.target})${verdict.met === null ? "" : verdict.met ? " met" : " MISSED"}`;
    return `${key} ${value ?? "not measured"}${judged}`;
  });
  const measured = measurementLines(result.measurements);
  process.stdout.write(`${[...figures, ...measured].join("\n")}\n`);
}

async function runEvents(args: Extract<BenchArgs, { kind: "events" }>): Promise<void> {
  const startedAt = Date.now();
  const result = await runEventsScenario({
    size: args.size,
    seed: args.seed,
    latencyMs: args.latencyMs,
    redisUrl: args.redisUrl,
    cliPath: CLI_PATH,
    progress,
  });
  progress(`done in ${Math.round((Date.now() - startedAt) / 1000)} s`);
  const report = { generated_at: new Date().toISOString(), machine: machineInfo(), events: result };
  process.stdout.write(
    args.json ? `${JSON.stringify(report, null, 2)}\n` : `${renderEventsResult(result, args.markdown ? "markdown" : "text")}\n`,
  );
}

async function runHistoryOverhead(args: Extract<BenchArgs, { kind: "history" }>): Promise<void> {
  const result = await measureHistoryOverhead({ size: args.size, pairs: args.pairs, latencyMs: args.latencyMs, seed: args.seed, progress });
  const generatedAt = new Date().toISOString();
  const report = { generated_at: generatedAt, machine: machineInfo(), seed: args.seed, ...result };
  if (args.writeResults) {
    const directory = resultsDirectory();
    await mkdir(directory, { recursive: true });
    // Date and minute: a day's earlier measurement (another commit's, say) is kept.
    const path = join(directory, `history-overhead-${generatedAt.slice(0, 16).replace(":", "-")}.json`);
    await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
    progress(`results written to ${path}`);
  }
  if (args.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const { medians } = result;
  const lines = [
    `history_overhead_ratio ${result.figures.history_overhead_ratio} (target ${result.target}; median of ${result.pairs} pairs, ${result.size})`,
    `wall s without / with: ${medians.wall_s.without} / ${medians.wall_s.with}`,
    `sync-only s without / with: ${medians.sync_only_s.without} / ${medians.sync_only_s.with} (ratio ${medians.sync_only_s.ratio})`,
    `CPU s without / with: ${medians.cpu_s.without} / ${medians.cpu_s.with} (ratio ${medians.cpu_s.ratio})`,
    `peak RSS MB without / with: ${medians.peak_rss_mb.without} / ${medians.peak_rss_mb.with}`,
    `history written: ${medians.history_mb} MB; 1-minute load average (median): ${medians.load_1m}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function runConsole(args: Extract<BenchArgs, { kind: "console" }>): Promise<void> {
  const result = await measureConsole({ redisUrl: args.redisUrl, progress });
  const report = { generated_at: new Date().toISOString(), machine: machineInfo(), console: result };
  if (args.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const lines = [
    `console_page_p50_ms ${result.page.p50_ms} (p95 ${result.page.p95_ms}; ${result.page.bytes} bytes; ${result.projects} projects, ${result.rounds} rounds)`,
    `console_overview_api_p50_ms ${result.api.p50_ms} (p95 ${result.api.p95_ms}; ${result.api.bytes} bytes)`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function runCapacity(args: Extract<BenchArgs, { kind: "capacity" }>): Promise<void> {
  const startedAt = Date.now();
  const result = await runCapacityScenario({
    sizes: args.sizes,
    events: args.events,
    seed: args.seed,
    latencyMs: args.latencyMs,
    redisUrl: args.redisUrl,
    cliPath: args.cliPath ?? CLI_PATH,
    progress,
  });
  progress(`done in ${Math.round((Date.now() - startedAt) / 1000)} s`);
  const report = {
    generated_at: new Date().toISOString(),
    machine: machineInfo(),
    seed: args.seed,
    latency_ms: args.latencyMs,
    capacity: result,
  };
  if (args.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const mb = (bytes: number): string => `${(bytes / 1_048_576).toFixed(2)} MB`;
  const lines = [
    ...Object.entries(result.sizes).map(
      ([size, measured]) =>
        `${size}: ${measured.options} options; first sync ${mb(measured.after_first_sync.bytes)} (${measured.after_first_sync.keys} keys); ` +
        `30 days projected ${mb(measured.projection_30_days.bytes)}; a no-change run leaves ${measured.per_noop_sync.bytes} B`,
    ),
    result.events === null
      ? "events: not measured"
      : `events: ${result.events.events} (${result.events.event_sync_jobs} targeted syncs): ${result.events.bytes_per_event} B and ${result.events.keys_per_event} keys per event, ${result.events.uncapped_bytes_per_event} B of it uncapped`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function runStartup(args: Extract<BenchArgs, { kind: "startup" }>): Promise<void> {
  // The bundled CLI, as the main run's start-up figures measure it (what `bin` and the image run).
  // One Node after the other (each its own bare start): a figure is a Node version's.
  const results = [];
  for (const nodePath of args.nodePaths.length > 0 ? args.nodePaths : [process.execPath])
    results.push(
      await runStartupScenario({
        cliPath: args.cliPath ?? BUILT_CLI_PATH,
        nodePath,
        redisUrl: args.redisUrl,
        rounds: args.rounds,
        progress,
      }),
    );
  const report = { generated_at: new Date().toISOString(), machine: machineInfo(), startup: results };
  if (args.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const lines = results.flatMap((result) => [
    `node ${result.node}:`,
    ...Object.entries(result.figures).map(
      ([key, value]) => `  ${key} ${value} (target <= ${STARTUP_TARGETS[key as keyof typeof STARTUP_TARGETS]})`,
    ),
    `  libraries floor ${result.libraries_floor_ratio} (zod, yaml, BullMQ with ioredis and pino loaded, nothing run; no target)`,
    `  medians ms: ${JSON.stringify(result.medians_ms)}; load ${result.load_average_1m.join(" / ")}`,
  ]);
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function main(argv: readonly string[]): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(argv);
  } catch (error) {
    if (!(error instanceof BenchUsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${BENCH_HELP}\n`);
    return 2;
  }
  switch (args.kind) {
    case "help":
      process.stdout.write(`${BENCH_HELP}\n`);
      return 0;
    case "report": {
      const results = benchResultsSchema.parse(JSON.parse(await readFile(args.file, "utf8")) as unknown);
      output(results, args);
      return 0;
    }
    case "run":
      await run(args);
      return 0;
    case "scale":
      await runScale(args);
      return 0;
    case "queue-overhead":
      await runQueueOverhead(args);
      return 0;
    case "fleet":
      await runFleet(args);
      return 0;
    case "large-fleet":
      await runLargeFleet(args);
      return 0;
    case "events":
      await runEvents(args);
      return 0;
    case "history":
      await runHistoryOverhead(args);
      return 0;
    case "console":
      await runConsole(args);
      return 0;
    case "capacity":
      await runCapacity(args);
      return 0;
    case "startup":
      await runStartup(args);
      return 0;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
