import type { DesiredOptions } from "./open-desired-options.js";

/**
 * The options a read source holds in memory, its weight in the write stage: its list, or the
 * named options and the entries of its collections' states read for them. Not the states'
 * sizes: their other entries were never read, and counting them made a few named options of a
 * long list take half the write stage, so the next sources waited for it to drain.
 */
export function optionsHeld(desired: DesiredOptions): number {
  if (desired.kind === "list") return desired.options.length;
  return [...desired.lastWritten.values()].reduce((sum, state) => sum + state.entries.size, desired.named.present.length);
}
