import { describe, expect } from "vitest";
import { approveHeldPlan } from "../../../../src/features/sync/held/approve-held-plan.js";
import { createFileHeldStore } from "../../../../src/features/sync/held/file-held-store.js";
import type { HeldPlan } from "../../../../src/features/sync/held/held-plan.js";
import type { HeldStore } from "../../../../src/features/sync/held/held-store.js";
import { createRedisHeldStore } from "../../../../src/features/sync/held/redis-held-store.js";
import { keepHeldPlans } from "../../../../src/features/sync/held/keep-held-plans.js";
import type { SyncReport } from "../../../../src/features/sync/sync-report.js";
import { test } from "../../../support/fixtures.js";
import type { TestRedis } from "../../../support/redis.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { syncReportOf } from "../../../support/sync-report-of.js";

const PROJECT = 67;
const plan = (id: string, options: string[]): HeldPlan => ({
  id,
  project: PROJECT,
  collections: [{ collection: "color", options, reason: "would delete" }],
  heldAt: "2026-01-01T00:00:00.000Z",
  lastHeldAt: "2026-01-01T00:00:00.000Z",
  run: { job: "67/1", trigger: "schedule" },
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  approved: null,
  revision: 0,
});

/** A run that held `options` of color again. */
const heldAgain = (options: string[]): SyncReport =>
  syncReportOf([{ action: "none", reason: "unchanged", heldBack: { names: options, reason: "would delete" }, written: false }]);

type Opened = (fixtures: { readonly redis: TestRedis; readonly tempDir: string }) => HeldStore;
const STORES: { readonly name: string; readonly open: Opened }[] = [
  { name: "redis", open: ({ redis }) => createRedisHeldStore(redis.redis, redis.prefix) },
  { name: "file", open: ({ tempDir }) => createFileHeldStore(tempDir) },
];

describe.each(STORES)("$name held store: every write a compare-and-set on the revision", ({ open }) => {
  test("writes a new plan once, then only over the revision it read; a removal likewise", async ({ redis, tempDir }) => {
    const store = open({ redis, tempDir });
    const first = plan("p1", ["black"]);
    expect(await store.save(first, null)).toBe(true);
    expect(await store.save(first, null)).toBe(false);
    const [stored] = await store.list(PROJECT);
    expect(stored?.revision).toBe(0);
    expect(await store.save({ ...first, collections: [] }, { ...first, revision: 7 })).toBe(false);
    expect(await store.save({ ...first, lastHeldAt: "2026-01-02T00:00:00.000Z" }, stored ?? null)).toBe(true);
    const [second] = await store.list(PROJECT);
    expect(second).toMatchObject({ revision: 1, lastHeldAt: "2026-01-02T00:00:00.000Z" });
    expect(await store.discard(first)).toBe(false);
    expect(await store.discard(second ?? first)).toBe(true);
    expect(await store.list(PROJECT)).toEqual([]);
    expect(await store.save(first, first)).toBe(false);
  });

  test("an approval given while a sync runs is kept: the run's review of its older copy is refused, and the plan stays approved", async ({
    redis,
    tempDir,
  }) => {
    const store = open({ redis, tempDir });
    await store.save(plan("p1", ["black", "blue"]), null);
    // The run lists the plans before it starts; an admin approves while it goes on; the run then
    // keeps what it held (the same options) over the copy it read.
    const read = await store.list(PROJECT);
    expect(read.every((candidate) => candidate.approved === null)).toBe(true);
    expect(await approveHeldPlan(store, PROJECT, "p1", "ada")).toMatchObject({ approved: { approved: { by: "ada" } } });
    await keepHeldPlans(
      {
        held: store,
        project: PROJECT,
        origin: { job: "67/2", trigger: "schedule" },
        expiryMs: 3_600_000,
        logger: silentLogger(),
        nowMs: Date.now(),
        whole: true,
      },
      read,
      heldAgain(["black", "blue"]),
    );
    const [kept] = await store.list(PROJECT);
    expect(kept).toMatchObject({ id: "p1", approved: { by: "ada" }, revision: 1 });
  });

  test("approving a plan a run rewrote meanwhile approves it as it is now", async ({ redis, tempDir }) => {
    const inner = open({ redis, tempDir });
    await inner.save(plan("p1", ["black"]), null);
    let rewrites = 0;
    // A store whose first compare-and-set loses to a run's rewrite of the same plan.
    const racing: HeldStore = {
      list: (project) => inner.list(project),
      discard: (held) => inner.discard(held),
      async save(next, read) {
        if (rewrites === 0 && read !== null) {
          rewrites += 1;
          expect(await inner.save({ ...read, lastHeldAt: "2026-01-03T00:00:00.000Z" }, read)).toBe(true);
        }
        return inner.save(next, read);
      },
    };
    const result = await approveHeldPlan(racing, PROJECT, "p1", "ada");
    expect(result).toMatchObject({ approved: { id: "p1", lastHeldAt: "2026-01-03T00:00:00.000Z", approved: { by: "ada" }, revision: 2 } });
    expect((await inner.list(PROJECT))[0]).toMatchObject({ approved: { by: "ada" }, revision: 2 });
  });
});
