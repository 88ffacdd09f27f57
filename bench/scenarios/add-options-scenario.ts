/**
 * Figure 5: add-options jobs through the worker. The worker is being built (issue 3), so this
 * reports nothing yet; fill it in with the same signature once `src/jobs/` can be driven.
 */
import type { ScenarioContext, ScenarioResult } from "./scenario.js";

export const NOT_MEASURED_YET = "not measured yet: needs the worker (issue 3)";

export function runAddOptionsScenario(_context: ScenarioContext): Promise<ScenarioResult> {
  return Promise.resolve({ figures: { add_options_ratio: null }, measurements: {}, note: NOT_MEASURED_YET });
}
