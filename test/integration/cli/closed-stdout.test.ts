import { describe, expect } from "vitest";
import type { HistoryBatch } from "../../../src/stores/history/history-batch.js";
import { createRedisHistoryStore } from "../../../src/stores/history/redis-history-store.js";
import { waitForExit } from "../../support/process-cli.js";
import { writeTestConfig, configInputWithoutUpstreams } from "../../support/process-config.js";
import { test } from "../../support/fixtures.js";
import { firstSyncBatch } from "../../support/first-sync-batch.js";

const PROJECT = 67;
/** Far more than a pipe's buffer (64 KiB) holds as text or JSON: the CLI must still be writing when the reader leaves. */
const OPTIONS = 4_000;

function batch(n: number, size: number): HistoryBatch {
  return firstSyncBatch(
    n,
    Array.from({ length: size }, (_, i) => `option-${n}-${i}`),
  );
}

/**
 * `pim-sync … | head`: the real CLI process writes into a pipe whose reader takes the first chunk
 * and closes it (src/cli/end-quietly-on-closed-stdout.ts).
 */
describe("a reader that closes stdout early (`pim-sync history | head`)", () => {
  let configPath: string;
  test.beforeEach(async ({ redis, tempDir }) => {
    configPath = await writeTestConfig(tempDir, configInputWithoutUpstreams(redis.prefix));
    const store = createRedisHistoryStore(redis.redis, redis.prefix, { retentionMs: 90 * 86_400_000 });
    for (let n = 0; n < 4; n += 1) await store.append(PROJECT, batch(n, OPTIONS / 4));
  });

  for (const listing of [
    { name: "history as text", args: ["--limit", String(OPTIONS)] },
    { name: "history --limit all --json (written as it is read)", args: ["--limit", "all", "--json"] },
  ])
    test(`${listing.name}: ends quietly, exit 0, nothing on stderr`, async ({ cli }) => {
      const proc = cli.spawn(["history", "--config", configPath, "--project", String(PROJECT), ...listing.args]);
      const stdout = proc.child.stdout;
      if (stdout === null) throw new Error("no stdout pipe");
      let firstChunk = "";
      stdout.once("data", (chunk: Buffer | string) => {
        firstChunk = String(chunk);
        stdout.destroy();
      });
      const status = await waitForExit(proc, 60_000);

      expect(firstChunk).toMatch(/option-3-/);
      expect(status).toEqual({ code: 0, signal: null });
      expect(proc.stderr()).toBe("");
    });

  test("--help into a pipe already closed: exit 0, nothing on stderr", async ({ cli }) => {
    const proc = cli.spawn(["--help"]);
    proc.child.stdout?.destroy();
    const status = await waitForExit(proc, 60_000);

    expect(status).toEqual({ code: 0, signal: null });
    expect(proc.stderr()).toBe("");
  });
});
