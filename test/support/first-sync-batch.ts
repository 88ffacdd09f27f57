import type { HistoryBatch } from "../../src/stores/history/history-batch.js";

/**
 * A history batch as the CLI's `sync` `n` (0 first) writes it on a first sync: one replace of the
 * `color` collection with `options`. The history listings' tests fill a store with these.
 */
export function firstSyncBatch(n: number, options: readonly string[]): HistoryBatch {
  return [
    {
      collection: "color",
      kind: "replaced",
      reason: "first sync",
      job: `cli/sync-${n}`,
      trigger: "cli",
      at: "2026-01-01T00:00:00.000Z",
      options: [...options],
    },
  ];
}
