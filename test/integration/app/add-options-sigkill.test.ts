import { describe, expect } from "vitest";
import { waitForExit, type CliProcess } from "../../support/process-cli.js";
import { waitForJobState } from "../../support/process-jobs.js";
import { waitFor } from "../../support/wait-for.js";
import { escapeRedisGlob, scanKeys } from "../../support/redis.js";
import { test } from "../../support/fixtures.js";
import { writeWorkerConfig, type ProcessTestFixtures } from "../../support/worker-process.js";

const PROJECT = 67;
const REQUESTS: readonly { attribute: string; name: string }[] = ["teal", "navy", "olive", "plum"]
  .map((name) => ({ attribute: "color", name }))
  .concat(["silk", "wool", "linen", "felt"].map((name) => ({ attribute: "material", name })))
  .concat(["xxl", "xxs", "s3xl", "s4xl"].map((name) => ({ attribute: "size_eu", name })));
const isAccepted = (r: { method: string; path: string; status: number }): boolean =>
  r.method === "PATCH" && r.path.endsWith("/add-options/") && r.status === 200;

describe("pim-sync worker as a process: SIGKILL in the middle of a merged add-options batch", () => {
  let fixtures: ProcessTestFixtures;
  let configPath: string;

  test.beforeEach(async ({ sims, redis, queues, tempDir, cli }) => {
    fixtures = { cli, sims, redis, queues, tempDir };
    configPath = await writeWorkerConfig(fixtures, {
      // 2 writes a second for 8 collections: the batch lasts seconds, the kill lands inside it.
      serviceExtras: { requests_per_second: 2 },
      projectExtras: { allowed_options_for_pim_attribute_addition: ["color", "material", "size_eu"] },
    });
  });

  const spawnWorker = (): Promise<CliProcess> => fixtures.cli.startWorker(configPath);

  test("every request ends added exactly once, and its outcome says so: no outcome before the writes, the killed run replayed, no failed job", async () => {
    const ids: string[] = [];
    for (const { attribute, name } of REQUESTS)
      ids.push((await fixtures.queues.enqueue("options.add", { project: PROJECT, attribute, options: [{ name }] })).jobId);
    const [leader] = ids;
    const workerA = await spawnWorker();
    await waitFor(() => fixtures.sims.service.requests.filter(isAccepted).length >= 2, {
      timeoutMs: 20_000,
      what: "2 accepted add-options calls",
    });
    workerA.signal("SIGKILL");
    expect(await waitForExit(workerA, 10_000)).toEqual({ code: null, signal: "SIGKILL" });
    // Killed part-way: not every collection was written, and no request has an outcome yet.
    expect(fixtures.sims.service.requests.filter(isAccepted).length).toBeLessThan(8);
    expect(await scanKeys(fixtures.redis.redis, `${escapeRedisGlob(fixtures.redis.prefix)}:add-outcome:*`)).toEqual([]);

    const workerB = await spawnWorker();
    const done = await Promise.all(ids.map((id) => waitForJobState(fixtures.queues, PROJECT, id, "completed", 60_000)));

    expect(await fixtures.queues.queueFor(PROJECT).getJobs(["failed"], 0, -1)).toEqual([]);
    const leaderJob = done.find((job) => job.id === leader);
    expect(leaderJob?.stalledCounter).toBeGreaterThanOrEqual(1);
    // Each request asked for an option of its own, so each caused an addition: `added`, even when
    // the killed run wrote it and the replay (or the request's own turn) found it present.
    for (const job of done) expect((job.returnvalue as { status: string }).status, `job ${job.id}`).toBe("added");
    for (const job of done) {
      const { collections } = job.returnvalue as { collections: { added: string[]; skipped: string[] }[] };
      expect(
        collections.every((c) => c.added.length === 1 && c.skipped.length === 0),
        `job ${job.id}: ${JSON.stringify(collections)}`,
      ).toBe(true);
    }
    // add-options was never sent twice for an option in a collection (the service would refuse
    // the second with a 400), and every option is in every collection of its attribute and in the PIM.
    for (const collection of fixtures.sims.service.collections().filter((c) => c.project === PROJECT)) {
      const sent = (fixtures.sims.service.writes()[collection.id] ?? [])
        .filter((w) => w.kind === "add-options")
        .flatMap((w) => (w.body as { upsert_options: { name: string }[] }).upsert_options.map((o) => o.name));
      expect(new Set(sent).size, collection.name).toBe(sent.length);
    }
    for (const { attribute, name } of REQUESTS) {
      const collections = fixtures.sims.service
        .collections()
        .filter((c) => c.project === PROJECT && (c.name === attribute || c.name.startsWith(`${attribute}-`)));
      expect(collections.length).toBeGreaterThan(0);
      for (const c of collections)
        expect(
          c.options.filter((o) => o.name === name),
          `${name} in ${c.name}`,
        ).toHaveLength(1);
      expect(
        (fixtures.sims.pim.state.attribute_options[attribute] ?? []).filter((o) => o.code === name),
        `${name} in the PIM`,
      ).toHaveLength(1);
    }
    workerB.signal("SIGTERM");
    expect(await waitForExit(workerB, 25_000)).toEqual({ code: 0, signal: null });
  });
});
