import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { recordAddedHistory } from "../../../src/features/add-options/record-added-history.js";
import { createFileHistoryStore } from "../../../src/stores/history/file-history-store.js";
import { cliOrigin } from "../../../src/stores/history/run-origin.js";
import { createLogger } from "../../../src/infra/log/create-logger.js";
import { EMPTY_REDACTOR } from "../../../src/infra/secrets/redactor.js";

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("recordAddedHistory: a history that cannot be written", () => {
  it("is logged with the error itself (type, code, stack), and the write goes on", async () => {
    dir = await mkdtemp(join(tmpdir(), "record-added-history-"));
    // A file where the store's folder should be: its folder cannot be made (ENOTDIR).
    const notAFolder = join(dir, "state");
    await writeFile(notAFolder, "");
    const lines: string[] = [];
    const logger = createLogger({
      level: "info",
      redactor: EMPTY_REDACTOR,
      destination: { write: (line: string) => void lines.push(line) },
    });
    const history = createFileHistoryStore(notAFolder, { retentionMs: 86_400_000 });

    await recordAddedHistory({
      deps: { history, logger },
      project: 67,
      collection: "color",
      parts: [{ request: "1", options: [{ name: "teal", label: { en_US: "Teal" } }] }],
      call: "add-options",
      originOf: () => cliOrigin("add-options"),
      now: Date.now,
    });

    const logged = lines.map(
      (line) =>
        JSON.parse(line) as { msg?: string; collection?: string; err?: { type?: string; code?: string; message?: string; stack?: string } },
    );
    const line = logged.find((entry) => entry.msg === "could not record added options in the change history");
    expect(line?.collection).toBe("color");
    expect(line?.err).toMatchObject({ type: "Error", code: "ENOTDIR" });
    expect(line?.err?.message).toContain("ENOTDIR");
    expect(line?.err?.stack).toContain("ENOTDIR");
  });
});
