import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { createFileHistoryStore } from "../../../../src/stores/history/file-history-store.js";
import type { HistoryBatch } from "../../../../src/stores/history/history-batch.js";
import { queryHistory } from "../../../../src/stores/history/query-history.js";
import { test } from "../../../support/fixtures.js";

const added = (...options: string[]): HistoryBatch => [
  {
    collection: "color",
    kind: "added",
    reason: "new in the PIM",
    job: "cli/x",
    trigger: "cli",
    at: "2026-01-01T00:00:00.000Z",
    options: options.map((option) => [option, null, { "en-US": option }]),
  },
];

describe("the file history store (--once without Redis)", () => {
  let dir: string;
  test.beforeEach(async ({ tempDir }) => {
    dir = tempDir;
  });

  test("trims what is older than the retention on a later run's first write, and pages newest first", async () => {
    let now = 1_000_000;
    const first = createFileHistoryStore(dir, { retentionMs: 10_000, now: () => now });
    await first.append(67, added("red", "blue"));
    now += 1;
    await first.append(67, added("green"));
    const page = await queryHistory(first, 67, { sinceMs: 0, limit: 2 });
    expect(page.entries.map((e) => e.option)).toEqual(["green", "red"]);
    // Stored once per batch, answered per option as before.
    expect(page.entries[0]).toEqual({
      collection: "color",
      option: "green",
      kind: "added",
      labelsBefore: null,
      labelsAfter: { "en-US": "green" },
      reason: "new in the PIM",
      job: "cli/x",
      trigger: "cli",
      at: "2026-01-01T00:00:00.000Z",
    });
    const rest = await queryHistory(first, 67, { sinceMs: 0, limit: 2, cursor: page.next ?? "" });
    expect(rest).toEqual({ entries: [expect.objectContaining({ option: "blue" })], next: null });

    now += 20_000;
    const later = createFileHistoryStore(dir, { retentionMs: 10_000, now: () => now });
    await later.append(67, added("purple"));
    expect((await queryHistory(later, 67, { sinceMs: 0, limit: 10 })).entries.map((e) => e.option)).toEqual(["purple"]);
    const lines = (await readFile(join(dir, "project-67", "history.ndjson"), "utf8")).trim().split("\n");
    expect(lines).toHaveLength(1);
  });
});
