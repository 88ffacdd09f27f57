import { describe, expect } from "vitest";
import type { HistoryBatch } from "../../../../src/stores/history/history-batch.js";
import { createRedisHistoryStore } from "../../../../src/stores/history/redis-history-store.js";
import { allHistory } from "../../../../src/stores/history/query-history.js";
import { DEFAULT_HISTORY_LIMIT } from "../../../../src/cli/commands/history-command.js";
import { assertCliBuilt, waitForExit } from "../../../support/process-cli.js";
import { writeTestConfig, configInputWithoutUpstreams } from "../../../support/process-config.js";
import type { TestRedis } from "../../../support/redis.js";
import { test, type CliFixture } from "../../../support/fixtures.js";
import { firstSyncBatch } from "../../../support/first-sync-batch.js";

const PROJECT = 67;
const BATCHES = 5;
const PER_BATCH = 50;
const TOTAL = BATCHES * PER_BATCH;
const RETENTION_MS = 90 * 86_400_000;
const MORE_KEPT = /showing the newest (\d+) entries; older ones are kept: --limit N for more, --limit all for every one/;

/** Batch `n` (0 first): one chunk's replace of `option-<n>-<i>`, and in the last one a `red`. */
function batch(n: number): HistoryBatch {
  return firstSyncBatch(
    n,
    Array.from({ length: PER_BATCH }, (_, i) => (n === BATCHES - 1 && i === 0 ? "red" : `option-${n}-${i}`)),
  );
}

interface Entry {
  readonly option: string;
  readonly collection: string;
}

describe("pim-sync history --limit and filters, over the real CLI", () => {
  let processes: CliFixture;
  let redis: TestRedis;
  let configPath: string;

  async function history(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
    const proc = processes.spawn(["history", "--config", configPath, "--project", String(PROJECT), ...args]);
    const status = await waitForExit(proc, 60_000);
    return { code: status.code, out: proc.stdout(), err: proc.stderr() };
  }
  async function listed(...args: string[]): Promise<{ entries: Entry[]; err: string }> {
    const run = await history("--json", ...args);
    expect(run.code, run.err).toBe(0);
    return { entries: JSON.parse(run.out) as Entry[], err: run.err };
  }

  test.beforeEach(async ({ redis: testRedis, tempDir, cli }) => {
    assertCliBuilt();
    processes = cli;
    redis = testRedis;
    // No upstream is called: the URLs only have to be valid.
    configPath = await writeTestConfig(tempDir, configInputWithoutUpstreams(redis.prefix));
    const store = createRedisHistoryStore(redis.redis, redis.prefix, { retentionMs: RETENTION_MS });
    for (let n = 0; n < BATCHES; n += 1) await store.append(PROJECT, batch(n));
  });

  test("lists the newest 100 by default and says on stderr that more are kept; --limit N takes N", async () => {
    const all = (
      await allHistory(createRedisHistoryStore(redis.redis, redis.prefix, { retentionMs: RETENTION_MS }), PROJECT, { sinceMs: 0 })
    ).map((entry) => entry.option);
    expect(all).toHaveLength(TOTAL);

    const byDefault = await listed();
    expect(byDefault.entries.map((entry) => entry.option)).toEqual(all.slice(0, DEFAULT_HISTORY_LIMIT));
    expect(byDefault.entries[0]?.option).toBe("red");
    expect(byDefault.err).toMatch(MORE_KEPT);
    expect(MORE_KEPT.exec(byDefault.err)?.[1]).toBe(String(DEFAULT_HISTORY_LIMIT));

    const seven = await listed("--limit", "7");
    expect(seven.entries.map((entry) => entry.option)).toEqual(all.slice(0, 7));
    expect(MORE_KEPT.exec(seven.err)?.[1]).toBe("7");

    // Exactly as many as there are: nothing more to say.
    const exact = await listed("--limit", String(TOTAL));
    expect(exact.entries).toHaveLength(TOTAL);
    expect(exact.err).not.toMatch(MORE_KEPT);

    const text = await history("--limit", "3");
    expect(text.code, text.err).toBe(0);
    expect(text.out.split("\n").filter((line) => / replaced +color \/ /.test(line))).toHaveLength(3);
    expect(text.err).toMatch(MORE_KEPT);
  });

  test("--limit all prints every entry kept, in the same order and format, as JSON or as text", async () => {
    const every = await listed("--limit", "all");
    expect(every.entries).toHaveLength(TOTAL);
    expect(every.entries[0]?.option).toBe("red");
    expect(every.err).not.toMatch(MORE_KEPT);
    expect(every.entries.slice(0, 7)).toEqual((await listed("--limit", "7")).entries);

    const text = await history("--limit", "all");
    expect(text.code, text.err).toBe(0);
    expect(text.out.split("\n").filter((line) => / replaced +color \/ /.test(line))).toHaveLength(TOTAL);
  });

  test("--option and --collection match in any case, as codes do everywhere in pim-sync", async () => {
    const red = await listed("--option", "RED", "--collection", "Color");
    expect(red.entries.map((entry) => [entry.collection, entry.option])).toEqual([["color", "red"]]);
    expect((await listed("--option", "Option-0-1")).entries.map((entry) => entry.option)).toEqual(["option-0-1"]);
  });

  test("a --limit that is not a positive whole number or all is a usage error naming it", async () => {
    for (const bad of ["0", "-3", "ten", "2.5"]) {
      const run = await history(`--limit=${bad}`);
      expect(run.code).toBe(2);
      expect(run.err).toContain(`--limit must be a positive whole number or 'all', got '${bad}'`);
      expect(run.out).toBe("");
    }
  });
});
