/**
 * Figure 6: the share of a sync's throughput kept when it runs as a queued job in the worker
 * rather than in-process (target >= 0.8). The worker is being built (issue 3), so this reports
 * nothing yet; fill it in with the same signature once `src/jobs/` can be driven.
 */
import { NOT_MEASURED_YET } from "./add-options-scenario.js";
import type { ScenarioContext, ScenarioResult } from "./scenario.js";

export function runQueueOverheadScenario(_context: ScenarioContext): Promise<ScenarioResult> {
  return Promise.resolve({ figures: { queue_overhead_ratio: null }, measurements: {}, note: NOT_MEASURED_YET });
}
