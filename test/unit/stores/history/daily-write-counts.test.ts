import { describe, expect, it } from "vitest";
import { dailyWriteCounts } from "../../../../src/stores/history/daily-write-counts.js";
import type { HistoryEntry } from "../../../../src/stores/history/history-entry.js";
import type { HistoryRecord, HistoryStore } from "../../../../src/stores/history/history-store.js";

const entry = (kind: HistoryEntry["kind"], at: string): HistoryEntry => ({
  collection: "color",
  option: "red",
  kind,
  labelsBefore: null,
  labelsAfter: null,
  reason: "r",
  job: "67/1",
  trigger: "schedule",
  at,
});

/** The store's contract (newest first, from `sinceMs`) over records held in memory. */
function storeOf(records: readonly HistoryRecord[]): HistoryStore {
  return {
    async append() {},
    async *newestFirst(_project, options) {
      for (const record of [...records].sort((a, b) => b.atMs - a.atMs)) if (record.atMs >= options.sinceMs) yield record;
    },
  };
}

describe("writes per day", () => {
  it("counts each day of the period by kind, days without writes as 0, oldest first", async () => {
    const at = (iso: string) => Date.parse(iso);
    const store = storeOf([
      {
        id: "1-0",
        atMs: at("2026-11-25T10:00:00Z"),
        entries: [entry("added", "2026-11-25T10:00:00Z"), entry("deleted", "2026-11-25T10:00:00Z")],
      },
      {
        id: "2-0",
        atMs: at("2026-11-27T23:59:00Z"),
        entries: [entry("deleted", "2026-11-27T23:59:00Z"), entry("deleted", "2026-11-27T23:59:00Z")],
      },
    ]);
    const days = await dailyWriteCounts(store, 67, { sinceMs: at("2026-11-24T12:00:00Z"), nowMs: at("2026-11-27T23:59:30Z") });
    expect(days.map((day) => [day.day, day.total, day.counts.added, day.counts.deleted])).toEqual([
      ["2026-11-24", 0, 0, 0],
      ["2026-11-25", 2, 1, 1],
      ["2026-11-26", 0, 0, 0],
      ["2026-11-27", 2, 0, 2],
    ]);
  });
});
