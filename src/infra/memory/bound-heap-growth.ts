import { setFlagsFromString } from "node:v8";

/**
 * How far V8 lets the heap grow past what the last full collection kept alive, as a percentage.
 *
 * Why: V8 sizes its heap from the machine's memory, and on a machine of several GB it lets the
 * heap grow to about four times the live data before collecting it all again. A sync keeps
 * 25–55 MB alive, so its RSS peaked near 280 MB of mostly garbage (docs/benchmarks.md, heap
 * follow-up). A growth bound makes V8 collect sooner instead, for some more GC time, which the
 * upstream budgets leave free. Unlike a heap size limit (`--max-old-space-size`, which only
 * counts when given at process start) it can be set from the config at run time, and it never
 * turns a larger catalogue into an out-of-memory crash: the heap still grows with the live data.
 *
 * 0 leaves V8's own heuristics.
 */
export function boundHeapGrowth(percent: number): void {
  if (percent <= 0) return;
  setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}
