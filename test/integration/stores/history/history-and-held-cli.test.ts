import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { entriesOfBatch, historyBatchSchema } from "../../../../src/stores/history/history-batch.js";
import type { RunningSimulators } from "../../../../sim/start-simulators.js";
import { assertCliBuilt, waitForExit } from "../../../support/process-cli.js";
import { testConfigObject } from "../../../support/process-config.js";
import { waitFor } from "../../../support/wait-for.js";
import type { TestRedis } from "../../../support/redis.js";
import { test, type CliFixture } from "../../../support/fixtures.js";
import type { HistoryEntryAnswer, HeldPlanAnswer } from "../../../support/history-answers.js";

const PROJECT = 67;
/** 2 of color's 5 options (40 %) trip it; 1 does not. */
const GUARD = { max_fraction: 0.3, min_count: 2 };

describe("pim-sync history and held, over the real CLI", () => {
  let processes: CliFixture;
  let sims: RunningSimulators;
  let redis: TestRedis;
  let dir: string;
  let configPath: string;

  async function writeConfig(history: Record<string, unknown> = {}): Promise<void> {
    const config = {
      ...testConfigObject({
        pimUrl: sims.pim.url,
        serviceUrl: sims.service.url,
        redisPrefix: redis.prefix,
        projectExtras: { deletion_guard: GUARD },
      }),
      history,
    };
    await writeFile(configPath, JSON.stringify(config));
  }

  async function cli(args: readonly string[]): Promise<{ code: number | null; out: string; err: string }> {
    const proc = processes.spawn([...args, "--config", configPath, "--project", String(PROJECT)]);
    const status = await waitForExit(proc, 60_000);
    return { code: status.code, out: proc.stdout(), err: proc.stderr() };
  }

  const sync = () => cli(["sync", "--once"]);
  async function history(...filters: string[]): Promise<HistoryEntryAnswer[]> {
    const run = await cli(["history", "--json", ...filters]);
    expect(run.code, run.err).toBe(0);
    return JSON.parse(run.out) as HistoryEntryAnswer[];
  }
  async function held(): Promise<HeldPlanAnswer[]> {
    const run = await cli(["held", "--json"]);
    expect(run.code, run.err).toBe(0);
    return JSON.parse(run.out) as HeldPlanAnswer[];
  }
  const color = () => {
    const options = sims.pim.state.attribute_options["color"];
    if (!options) throw new Error("the sample catalogue has no color");
    return options;
  };
  const dropFromPim = (...codes: string[]) => color().splice(0, color().length, ...color().filter((o) => !codes.includes(o.code)));
  const inService = (collection: string) =>
    (sims.service.collections().find((c) => c.name === collection && c.project === PROJECT)?.options ?? []).map((o) => o.name).sort();

  test.beforeEach(async ({ sims: simulators, redis: testRedis, tempDir, cli: fixture }) => {
    processes = fixture;
    assertCliBuilt();
    sims = simulators;
    redis = testRedis;
    dir = tempDir;
    configPath = join(dir, "config.json");
  });

  test("records each write with its kind, reason and run; finds the run that deleted an option; an approval deletes exactly the approved options and holds a new deletion again", async () => {
    await writeConfig();
    expect((await sync()).code).toBe(0);
    const first = await history("--collection", "color");
    expect(first.map((e) => e.option).sort()).toEqual(["black", "blue", "green", "red", "white"]);
    // A first sync's replace records codes only: the labels it wrote are the state's.
    expect(
      first.every(
        (e) =>
          e.kind === "replaced" &&
          e.trigger === "cli" &&
          e.job.startsWith("cli/sync-") &&
          e.labels_before === null &&
          e.labels_after === null,
      ),
    ).toBe(true);

    color().push({ code: "purple", sort_order: 9, labels: { en_US: "Purple" } });
    const red = color().find((o) => o.code === "red");
    if (!red) throw new Error("no red");
    red.labels = { ...red.labels, en_US: "Scarlet" };
    dropFromPim("white");
    expect((await sync()).code).toBe(0);

    const second = (await history("--collection", "color")).filter((e) => !first.some((f) => f.job === e.job));
    const job = second[0]?.job;
    expect(job).toBeDefined();
    expect(second.every((e) => e.job === job)).toBe(true);
    expect(second.map((e) => [e.option, e.kind]).sort()).toEqual([
      ["purple", "added"],
      ["red", "relabelled"],
      ["white", "deleted"],
    ]);
    expect(second.find((e) => e.option === "red")).toMatchObject({
      labels_before: { "en-US": "Red" },
      labels_after: { "en-US": "Scarlet" },
    });
    const white = await history("--option", "white");
    expect(white.map((e) => e.kind)).toEqual(["deleted", "replaced"]);
    expect(white[0]).toMatchObject({
      job,
      collection: "color",
      labels_after: null,
      reason: expect.stringMatching(/^the PIM no longer has it \(confirmed by a read of the PIM at \d{4}-/),
    });
    expect(Object.keys(white[0] ?? {})).toEqual(expect.arrayContaining(["collection", "option", "kind", "reason", "job", "at"]));

    // Two of five: the guard holds them; the held plan is kept.
    dropFromPim("black", "blue");
    expect((await sync()).code).toBe(3);
    const [plan, ...others] = await held();
    expect(others).toEqual([]);
    expect(plan).toMatchObject({
      approved: null,
      collections: [{ collection: "color", options: ["black", "blue"], reason: expect.stringMatching(/would delete 2 of 5/) }],
    });
    expect(inService("color")).toContain("black");

    // The PIM loses one more before the approved run: that one was never approved.
    dropFromPim("green");
    const approve = await cli(["held", "approve", "--id", plan?.id ?? "?"]);
    expect(approve.code, approve.err).toBe(0);
    expect((await held())[0]?.approved?.by).toMatch(/^cli/);
    expect((await sync()).code).toBe(3);

    expect(inService("color")).toEqual(["green", "purple", "red"]);
    const after = await held();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ approved: null, collections: [{ collection: "color", options: ["green"] }] });
    expect(after[0]?.id).not.toBe(plan?.id);
    const black = await history("--option", "black");
    expect(black[0]).toMatchObject({ kind: "deleted", reason: expect.stringContaining(`approved in held plan ${plan?.id ?? "?"}`) });
    expect(black[0]?.job).toBe(after[0]?.run.job);
    expect(await history("--option", "green")).toEqual([expect.objectContaining({ kind: "replaced" })]);
  });

  test("approving a plan that does not exist fails naming it, and writes nothing", async () => {
    await writeConfig();
    const run = await cli(["held", "approve", "--id", "nope"]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/no held plan 'nope' in project 67/);
    expect(await held()).toEqual([]);
  });

  test("trims entries older than history.retention_ms", async () => {
    await writeConfig({ retention_ms: 1_000 });
    expect((await sync()).code).toBe(0);
    // Read from the stream, not through the CLI: a CLI start can take longer than the retention.
    const stream = `${redis.prefix}:history:${PROJECT}`;
    // At least one entry: on a loaded machine a sync slower than the retention already trims its
    // own first batches while it writes the later ones (a count of 4 was seen where 6 were written).
    const written = await redis.redis.xlen(stream);
    expect(written).toBeGreaterThan(0);
    const [[newestId] = ["0-0"]] = await redis.redis.xrevrange(stream, "+", "-", "COUNT", 1);
    const newest = Number(newestId.split("-")[0]);
    await waitFor(() => Date.now() > newest + 1_000, { timeoutMs: 10_000, what: "the first sync's entries to pass the retention" });

    color().push({ code: "purple", sort_order: 9, labels: { en_US: "Purple" } });
    expect((await sync()).code).toBe(0);

    // Read from the stream again (trimming happens on a write only, so this is stable): the
    // first sync's entries are gone from it, not only hidden; the second sync's write is there.
    const kept = await redis.redis.xrange(stream, "-", "+");
    expect(kept).toHaveLength(1);
    const fields = kept[0]?.[1] ?? [];
    const batch = historyBatchSchema.parse(JSON.parse(fields[fields.indexOf("b") + 1] ?? "[]"));
    expect(entriesOfBatch(batch).map((e) => [e.option, e.kind])).toEqual([["purple", "added"]]);
  });
});
