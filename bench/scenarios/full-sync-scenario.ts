/** Figures 1, 2 and 4 on a first sync: no state, so every derived collection is replaced. */
import type { ScenarioContext, ScenarioResult } from "./scenario.js";
import { round } from "../report/round.js";
import { assertSyncSucceeded, measureSyncRun } from "./measure-sync-run.js";

export async function runFullSyncScenario(context: ScenarioContext): Promise<ScenarioResult> {
  const run = await context.runSync("first sync");
  assertSyncSucceeded(run, `${context.size} first sync`);
  const measured = measureSyncRun(run, context.minimal.firstSync, context.latencyMs);
  return {
    figures: {
      full_sync_ratio: round(measured.ratio, 4),
      requests_ratio: round(measured.requestsRatio, 4),
      peak_rss_mb: round(run.child.maxRssMb, 1),
    },
    measurements: { first_sync: measured.measurements },
    note: null,
  };
}
