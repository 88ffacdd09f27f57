import { describe, expect } from "vitest";
import type { SimCatalog } from "../../../../sim/catalog/catalog-file.js";
import {
  addOptionsRequests,
  finishedJob,
  pimCodes,
  PROJECT,
  serviceOptions,
  SIBLINGS,
  type TestWorker,
  type WorkerHarness,
} from "../../../support/worker-harness.js";
import { test, type HarnessFixture } from "../../../support/fixtures.js";

interface JobResult {
  status: string;
  reasons: string[];
  collections: { collection: string; added: string[]; skipped: string[] }[];
  merged_into: string | null;
  batch?: { requests: number; left_to_run: number; service_calls: number };
}

type Option = { name: string; label?: Record<string, string> };

/**
 * Requests queued while the queue is paused are all waiting when the worker takes the first:
 * that job carries them all out, and each keeps its own job and outcome.
 */
describe("worker: merged add-options", () => {
  let h: WorkerHarness;
  let harness: HarnessFixture;
  test.beforeEach(({ harness: fixture }) => {
    harness = fixture;
  });

  async function start(editCatalog?: (catalog: SimCatalog) => void): Promise<TestWorker> {
    h = await harness.start(editCatalog ? { editCatalog } : {});
    await h.queue().pause();
    return h.startWorker();
  }

  async function enqueue(attribute: string, options: Option[], idempotencyKey?: string): Promise<string> {
    return (await h.queues.enqueue("options.add", { project: PROJECT, attribute, options }, { idempotencyKey })).jobId;
  }

  async function runAll(ids: readonly string[]) {
    await h.queue().resume();
    return Promise.all(ids.map(async (id) => ({ id, ...(await finishedJob(h.queue(), id, 30_000)) })));
  }

  const collectionId = (name: string): number => h.service.collections().find((c) => c.name === name && c.project === PROJECT)?.id ?? -1;

  test("carries out every waiting request in one run: one add-options call per collection, each job completed with its own outcome", async () => {
    await start();
    const ids = [
      await enqueue("color", [{ name: "teal", label: { "en-US": "Teal (first)" } }]),
      await enqueue("material", [{ name: "silk" }]),
      await enqueue("color", [{ name: "Teal", label: { "en-US": "Teal (second)" } }, { name: "navy" }]),
      await enqueue("size_eu", [{ name: "xxl" }]),
      await enqueue("color", [{ name: "TEAL" }]),
      await enqueue("material", [{ name: "wool" }]),
    ];
    const [leader, ...others] = ids;
    const done = await runAll(ids);

    expect(done.map((d) => d.state)).toEqual(ids.map(() => "completed"));
    const results = new Map(done.map((d) => [d.id, d.job.returnvalue as JobResult]));
    expect(results.get(leader ?? "")).toMatchObject({ status: "added", merged_into: null, batch: { requests: 6, left_to_run: 0 } });
    for (const id of others) expect(results.get(id)?.merged_into).toBe(leader);
    // The admin API (and `jobs show`) tell a merged request's own outcome.
    expect((await h.admin.show(`${PROJECT}/${ids[1] ?? ""}`)).result).toMatchObject({
      status: "added",
      attribute: "material",
      merged_into: leader,
    });
    // The first request in queue order adds `teal` with its label; the later one finds it there.
    expect(results.get(ids[2] ?? "")?.collections).toEqual([{ collection: "color", added: ["navy"], skipped: ["Teal"] }]);
    expect(results.get(ids[4] ?? "")).toMatchObject({
      status: "already_present",
      collections: [{ collection: "color", added: [], skipped: ["TEAL"] }],
    });
    expect(serviceOptions(h.service, "color").filter((o) => o.name.toLowerCase() === "teal")).toEqual([
      { name: "teal", label: { "en-US": "Teal (first)" } },
    ]);

    // One add-options call per collection, carrying every option it lacked.
    const calls = addOptionsRequests(h.service);
    const collections = ["color", ...(SIBLINGS.material ?? []), ...(SIBLINGS.size_eu ?? [])];
    expect(calls.map((r) => r.status)).toEqual(collections.map(() => 200));
    expect(calls.map((r) => r.path).sort()).toEqual(
      collections.map((name) => `/api/v1/options_collections/${collectionId(name)}/add-options/`).sort(),
    );
    const writes = h.service.writes();
    expect((writes[collectionId("color")] ?? []).map((w) => w.body)).toEqual([
      {
        upsert_options: [
          { name: "teal", label: { "en-US": "Teal (first)" } },
          { name: "navy", label: {} },
        ],
      },
    ]);
    for (const name of SIBLINGS.material ?? []) {
      expect(
        serviceOptions(h.service, name)
          .map((o) => o.name)
          .filter((n) => ["silk", "wool"].includes(n))
          .sort(),
      ).toEqual(["silk", "wool"]);
    }
    expect(
      pimCodes(h.pim, "color")
        .filter((code) => ["teal", "navy"].includes(code))
        .sort(),
    ).toEqual(["navy", "teal"]);
    // The merged jobs asked nothing upstream on their own turn: one run of the batch only.
    expect(h.logs.filter((l) => l.msg === "options added").length).toBe(collections.length);
  });

  test("rejects a bad request among good ones with its own reason, and the others succeed", async () => {
    await start();
    const good1 = await enqueue("color", [{ name: "teal" }]);
    const badLocale = await enqueue("color", [{ name: "olive", label: { "es-ES": "Oliva" } }]);
    const notAllowed = await enqueue("season", [{ name: "winter" }]);
    const good2 = await enqueue("color", [{ name: "navy" }]);
    const done = new Map((await runAll([good1, badLocale, notAllowed, good2])).map((d) => [d.id, d]));

    expect(done.get(good1)?.state).toBe("completed");
    expect(done.get(good2)?.state).toBe("completed");
    expect((done.get(good2)?.job.returnvalue as JobResult).merged_into).toBe(good1);
    for (const [id, reason] of [
      [badLocale, /label locale\(s\) es-ES are not among the project's locales/],
      [notAllowed, /'season' is not in allowed_options_for_pim_attribute_addition/],
    ] as const) {
      const d = done.get(id);
      expect(d?.state).toBe("failed");
      expect(d?.job.attemptsMade).toBe(1);
      expect(d?.job.failedReason).toMatch(reason);
    }
    expect((h.service.writes()[collectionId("color")] ?? []).map((w) => w.body)).toEqual([
      {
        upsert_options: [
          { name: "teal", label: {} },
          { name: "navy", label: {} },
        ],
      },
    ]);
    expect(serviceOptions(h.service, "color").map((o) => o.name)).not.toContain("olive");
    const failed = await h.admin.list({ state: "failed" });
    expect(failed.map((j) => j.ref).sort()).toEqual([`${PROJECT}/${badLocale}`, `${PROJECT}/${notAllowed}`].sort());
  });

  test("carries a rejected merged request out afresh when it is retried after a config fix (its recorded outcome is used once)", async () => {
    const first = await start();
    const good = await enqueue("color", [{ name: "teal" }]);
    const season = await enqueue("season", [{ name: "winter" }]);
    const done = await runAll([good, season]);
    expect(done.map((d) => d.state)).toEqual(["completed", "failed"]);
    expect(done[1]?.job.failedReason).toMatch(/'season' is not in allowed_options_for_pim_attribute_addition/);

    await first.stop();
    await h.startWorker(
      h.settings({ projects: [h.project(PROJECT, { allowed_options_for_pim_attribute_addition: ["color", "season"] })] }),
    );
    expect(await h.admin.retry([`${PROJECT}/${season}`])).toEqual([{ ref: `${PROJECT}/${season}`, outcome: "retried" }]);
    const retried = await finishedJob(h.queue(), season, 30_000);

    expect(retried.state).toBe("completed");
    expect(retried.job.returnvalue).toMatchObject({
      status: "added",
      merged_into: null,
      collections: [{ collection: "season-ecommerce", added: ["winter"], skipped: [] }],
    });
  });

  test("isolates the request whose option the service refuses inside a merged write, by halving the batch", async () => {
    // The service already holds `clash` in `color` (the PIM does not): add-options refuses it.
    await start((catalog) => {
      const color = catalog.service.collections.find((c) => c.name === "color" && c.project === PROJECT);
      if (!color) throw new Error("no color collection");
      color.options.push({ name: "clash", label: {} });
    });
    const ids = [
      await enqueue("color", [{ name: "teal" }]),
      await enqueue("color", [{ name: "clash" }]),
      await enqueue("color", [{ name: "navy" }]),
      await enqueue("color", [{ name: "olive" }]),
    ];
    const done = await runAll(ids);

    expect(done.map((d) => d.state)).toEqual(["completed", "failed", "completed", "completed"]);
    expect(done[1]?.job.attemptsMade).toBe(1);
    expect(done[1]?.job.failedReason).toMatch(/refused add-options of clash for 'color'.*already exists/);
    const adds = (h.service.writes()[collectionId("color")] ?? []).filter((w) => w.kind === "add-options");
    expect(adds.map((w) => w.body)).toEqual([
      { upsert_options: [{ name: "teal", label: {} }] },
      {
        upsert_options: [
          { name: "navy", label: {} },
          { name: "olive", label: {} },
        ],
      },
    ]);
    // [all 4] refused, [teal, clash] refused, [teal] ok, [clash] refused, [navy, olive] ok.
    expect(addOptionsRequests(h.service).map((r) => r.status)).toEqual([400, 400, 200, 400, 200]);
    expect(
      serviceOptions(h.service, "color")
        .map((o) => o.name)
        .sort(),
    ).toEqual(["clash", "navy", "olive", "teal"]);
  });

  test("leaves a request that relied on a refused one without an outcome: it runs on its own turn and adds the option", async () => {
    await start((catalog) => {
      const color = catalog.service.collections.find((c) => c.name === "color" && c.project === PROJECT);
      if (!color) throw new Error("no color collection");
      color.options.push({ name: "clash", label: {} });
    });
    // `red` is in the PIM, not yet in the collection (no sync ran): the first request brings it
    // for both (through update-options), but the service refuses that request (for `clash`).
    const refused = await enqueue("color", [{ name: "clash" }, { name: "red" }]);
    const relying = await enqueue("color", [{ name: "red" }]);
    const done = await runAll([refused, relying]);

    expect(done.map((d) => d.state)).toEqual(["failed", "completed"]);
    expect(done[0]?.job.failedReason).toMatch(/already exists/);
    expect(done[1]?.job.returnvalue).toMatchObject({
      status: "added",
      merged_into: null,
      collections: [{ collection: "color", added: ["red"], skipped: [] }],
    });
    expect(
      serviceOptions(h.service, "color")
        .map((o) => o.name)
        .sort(),
    ).toEqual(["clash", "red"]);
  });

  test("never lets a waiting sync be overtaken: a batch stops at the first job of another name", async () => {
    await start();
    const a = await enqueue("color", [{ name: "teal" }]);
    const b = await enqueue("color", [{ name: "navy" }]);
    const sync = (await h.queues.enqueue("sync.run", { project: PROJECT })).jobId;
    const c = await enqueue("color", [{ name: "olive" }]);
    const d = await enqueue("color", [{ name: "plum" }]);
    const done = new Map((await runAll([a, b, sync, c, d])).map((x) => [x.id, x]));

    expect([...done.values()].map((x) => x.state)).toEqual(["completed", "completed", "completed", "completed", "completed"]);
    const result = (id: string): JobResult => done.get(id)?.job.returnvalue as JobResult;
    expect(result(a)).toMatchObject({ merged_into: null, batch: { requests: 2 } });
    expect(result(b).merged_into).toBe(a);
    expect(result(c)).toMatchObject({ merged_into: null, batch: { requests: 2 } });
    expect(result(d).merged_into).toBe(c);
    // Handler runs in queue order, the sync between the two batches.
    expect(h.handlerRuns().map((run) => run.job)).toEqual([a, b, sync, c, d]);
  });

  test("keeps Idempotency-Key duplicates: one job per key, merged like any other", async () => {
    await start();
    const first = await enqueue("color", [{ name: "teal" }], "key-1");
    const again = await h.queues.enqueue(
      "options.add",
      { project: PROJECT, attribute: "color", options: [{ name: "teal" }] },
      { idempotencyKey: "key-1" },
    );
    const other = await enqueue("color", [{ name: "navy" }], "key-2");
    expect(again).toMatchObject({ status: "duplicate", jobId: first });
    const done = await runAll([first, other]);

    expect(done.map((x) => x.state)).toEqual(["completed", "completed"]);
    expect((done[1]?.job.returnvalue as JobResult).merged_into).toBe(first);
    expect(addOptionsRequests(h.service)).toHaveLength(1);
    expect(await h.queue().getJobCounts("completed")).toEqual({ completed: 2 });
  });
});
