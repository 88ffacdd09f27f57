import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { recordAddedHistory } from "../../../../src/features/add-options/record-added-history.js";
import { createFileHistoryStore } from "../../../../src/stores/history/file-history-store.js";
import { cliOrigin } from "../../../../src/stores/history/run-origin.js";

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("recordAddedHistory: a history that cannot be written", () => {
  it("fails the write's collection, naming it and the store's error, so the state does not take the write", async () => {
    dir = await mkdtemp(join(tmpdir(), "record-added-history-"));
    // A file where the store's folder should be: its folder cannot be made (ENOTDIR).
    const notAFolder = join(dir, "state");
    await writeFile(notAFolder, "");
    const history = createFileHistoryStore(notAFolder, { retentionMs: 86_400_000 });

    const recording = recordAddedHistory({
      deps: { history },
      project: 67,
      collection: "color",
      parts: [{ request: "1", options: [{ name: "teal", label: { en_US: "Teal" } }] }],
      call: "add-options",
      originOf: () => cliOrigin("add-options"),
      now: Date.now,
    });

    await expect(recording).rejects.toThrow(
      /options added to 'color'.*could not record them \(.*ENOTDIR.*\): the state does not take them/,
    );
    await expect(recording).rejects.toMatchObject({ cause: { code: "ENOTDIR" } });
  });
});
