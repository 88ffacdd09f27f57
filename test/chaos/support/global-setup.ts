/**
 * Global setup of the `chaos` project: a fresh folder for the test files' counters, and at the
 * end one summary of them, printed and written to `PIM_SYNC_CHAOS_RESULTS` (default:
 * `reliability-results.json` in the system's temp folder). docs/reliability.md quotes a full run's.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { CHAOS_SCALE } from "./chaos-scale.js";
import { emptyCounters, type ChaosCounters } from "./chaos-results.js";

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "pim-sync-chaos-"));
  project.provide("chaosResultsDir", dir);
  project.provide("chaosScale", CHAOS_SCALE);
  const startedAt = new Date();
  return () => {
    const total = emptyCounters();
    const byFile: Record<string, ChaosCounters> = {};
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".json"))) {
      const counters = JSON.parse(readFileSync(join(dir, file), "utf8")) as ChaosCounters;
      byFile[file.replace(/\.json$/, "")] = counters;
      for (const key of Object.keys(total) as (keyof ChaosCounters)[]) total[key] += counters[key] ?? 0;
    }
    const summary = { scale: CHAOS_SCALE, startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), total, byFile };
    const out = process.env.PIM_SYNC_CHAOS_RESULTS ?? join(tmpdir(), "reliability-results.json");
    writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    console.log(`\nchaos suite (${CHAOS_SCALE}): ${JSON.stringify(total)}\nsummary written to ${out}`);
  };
}
