/** Size results → the one object printed with --json and written to bench/results/. */
import type { CatalogSizeName } from "../catalog/catalog-sizes.js";
import type { BenchResults, MachineInfo, SizeResult } from "./bench-results.js";
import { summarizeAcrossSizes, verdictsOf } from "./figures.js";

export function assembleResults(args: {
  readonly date: string;
  readonly generatedAt: string;
  readonly latencyMs: number;
  readonly seed: number;
  readonly machine: MachineInfo;
  readonly sizes: Partial<Record<CatalogSizeName, SizeResult>>;
}): BenchResults {
  const figures = summarizeAcrossSizes(args.sizes);
  return {
    date: args.date,
    generated_at: args.generatedAt,
    latency_ms: args.latencyMs,
    seed: args.seed,
    machine: args.machine,
    ...figures,
    targets: verdictsOf(figures),
    sizes: args.sizes,
  };
}

/**
 * Today's earlier results and this run's, as one: runs of single sizes on one day add up, as
 * long as they measured the same thing (same latency, same seed, same machine); otherwise this
 * run replaces the file.
 */
export function mergeResults(previous: BenchResults | null, current: BenchResults): BenchResults {
  if (
    previous === null ||
    previous.date !== current.date ||
    previous.latency_ms !== current.latency_ms ||
    previous.seed !== current.seed ||
    previous.machine.cores !== current.machine.cores ||
    previous.machine.node !== current.machine.node
  ) {
    return current;
  }
  return assembleResults({
    date: current.date,
    generatedAt: current.generated_at,
    latencyMs: current.latency_ms,
    seed: current.seed,
    machine: current.machine,
    sizes: { ...previous.sizes, ...current.sizes },
  });
}
