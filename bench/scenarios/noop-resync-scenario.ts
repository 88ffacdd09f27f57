/**
 * Figure 3 (and 2 and 4 again): the same catalogue synced a second time with the state the first
 * sync left. Nothing changed in the PIM, so nothing may be written; the time is compared with the
 * read floor (the same reads, zero writes).
 */
import type { ScenarioContext, ScenarioResult } from "./scenario.js";
import { round } from "../report/round.js";
import { assertSyncSucceeded, measureSyncRun } from "./measure-sync-run.js";

export async function runNoopResyncScenario(context: ScenarioContext): Promise<ScenarioResult> {
  const run = await context.runSync("no-change re-sync");
  assertSyncSucceeded(run, `${context.size} no-change re-sync`);
  const measured = measureSyncRun(run, context.minimal.resync, context.latencyMs);
  return {
    figures: {
      noop_writes: run.service.writes + run.pim.writes,
      noop_ratio: round(measured.ratio, 4),
      requests_ratio: round(measured.requestsRatio, 4),
      peak_rss_mb: round(run.child.maxRssMb, 1),
    },
    measurements: { resync: measured.measurements },
    note: null,
  };
}
