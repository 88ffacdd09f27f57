import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFileHeldStore } from "../../../../../src/features/sync/held/file-held-store.js";
import { keepHeldPlans } from "../../../../../src/features/sync/held/keep-held-plans.js";
import { cliOrigin } from "../../../../../src/stores/history/run-origin.js";
import { createLogger } from "../../../../../src/infra/log/create-logger.js";
import { EMPTY_REDACTOR } from "../../../../../src/infra/secrets/redactor.js";
import type { SyncReport } from "../../../../../src/features/sync/sync-report.js";
import { syncReportOf } from "../../../../support/sync-report-of.js";

const PROJECT = 67;
let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Held deletions: the run has a plan to keep. */
const emptyReport = (): SyncReport =>
  syncReportOf(
    [{ action: "none", reason: "unchanged", heldBack: { names: ["red"], reason: "would delete 1 of 1 options" }, written: false }],
    PROJECT,
  );

describe("keepHeldPlans: held plans that cannot be kept", () => {
  it("are logged with the error itself (type, code, stack), and the run does not fail for it", async () => {
    dir = await mkdtemp(join(tmpdir(), "held-review-log-"));
    const lines: string[] = [];
    const logger = createLogger({
      level: "info",
      redactor: EMPTY_REDACTOR,
      destination: { write: (line: string) => void lines.push(line) },
    });
    const held = createFileHeldStore(dir);
    // The plans are listed before the run; during it, the project's folder becomes a file, so
    // they can no longer be read when they are kept after it (ENOTDIR).
    const plans = await held.list(PROJECT);
    await writeFile(join(dir, `project-${PROJECT}`), "");
    await expect(
      keepHeldPlans(
        { held, project: PROJECT, origin: cliOrigin("sync"), expiryMs: 86_400_000, logger, nowMs: Date.now(), whole: true },
        plans,
        emptyReport(),
      ),
    ).resolves.toBeUndefined();
    const logged = lines.map(
      (line) =>
        JSON.parse(line) as { msg?: string; project?: number; err?: { type?: string; code?: string; message?: string; stack?: string } },
    );
    const line = logged.find((entry) => entry.msg === "could not keep the held deletions for review");
    expect(line?.project).toBe(PROJECT);
    expect(line?.err).toMatchObject({ type: "Error", code: "ENOTDIR" });
    expect(line?.err?.stack).toContain("ENOTDIR");
  });
});
