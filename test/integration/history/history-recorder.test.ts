import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { createFileHistoryStore } from "../../../src/stores/history/file-history-store.js";
import type { HistoryBatch } from "../../../src/stores/history/history-batch.js";
import { createHistoryRecorder } from "../../../src/stores/history/history-recorder.js";
import type { HistoryStore } from "../../../src/stores/history/history-store.js";
import { allHistory } from "../../../src/stores/history/query-history.js";
import { test } from "../../support/fixtures.js";

const replaced = (...options: string[]): HistoryBatch => [
  {
    collection: "size",
    kind: "replaced",
    reason: "replaced by a --full run",
    job: "cli/x",
    trigger: "cli",
    at: "2026-01-01T00:00:00.000Z",
    options,
  },
];

describe("the history recorder (a batch stored while the next chunk is written)", () => {
  let dir: string;
  test.beforeEach(async ({ tempDir }) => {
    dir = tempDir;
  });

  test("stores one batch at a time, in the order queued; a record waits for the batch before it only", async () => {
    // One clock tick for every batch: their order can only come from the queue.
    const store = createFileHistoryStore(dir, { retentionMs: 60_000, now: () => 1_000_000 });
    let inFlight = 0;
    let mostInFlight = 0;
    const counted: HistoryStore = {
      ...store,
      async append(project, batch) {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        try {
          await store.append(project, batch);
        } finally {
          inFlight -= 1;
        }
      },
    };
    const failures: unknown[] = [];
    const recorder = createHistoryRecorder(counted, 67, (error) => failures.push(error));
    const stored = async () => (await allHistory(store, 67, { sinceMs: 0 })).map((entry) => entry.option);
    for (let chunk = 0; chunk < 5; chunk += 1) {
      await recorder.record(replaced(`a${chunk}`, `b${chunk}`));
      // The batch before this one is stored by now (this one may still be on its way).
      if (chunk > 0) expect(await stored()).toContain(`a${chunk - 1}`);
    }
    // Queued without waiting for each other: still one at a time.
    const queued = Array.from({ length: 15 }, (_, index) => recorder.record(replaced(`a${index + 5}`, `b${index + 5}`)));
    await Promise.all(queued);
    await recorder.settled();
    expect(failures).toEqual([]);
    // One append at a time: each waits for the one before it (a file append and its ids cannot interleave).
    expect(mostInFlight).toBe(1);
    expect(await stored()).toEqual(Array.from({ length: 20 }, (_, chunk) => [`a${19 - chunk}`, `b${19 - chunk}`]).flat());
  });

  test("reports a batch it cannot store and still stores the next", async () => {
    // `project-67` is a file: the first append cannot make its folder.
    await writeFile(join(dir, "project-67"), "");
    const store = createFileHistoryStore(dir, { retentionMs: 60_000 });
    const failed: HistoryBatch[] = [];
    const recorder = createHistoryRecorder(store, 67, (_error, batch) => failed.push(batch));
    await recorder.record(replaced("lost"));
    await recorder.settled();
    expect(failed.map((batch) => batch[0]?.options)).toEqual([["lost"]]);
    await rm(join(dir, "project-67"));
    await recorder.record(replaced("kept"));
    await recorder.settled();
    expect((await allHistory(store, 67, { sinceMs: 0 })).map((entry) => entry.option)).toEqual(["kept"]);
  });
});
