import { describe, expect, it } from "vitest";
import { reviewAfterRun } from "../../../../../src/features/sync/held/review-after-run.js";
import type { HeldPlan } from "../../../../../src/features/sync/held/held-plan.js";
import { DEFAULT_DELETION_GUARD } from "../../../../../src/core/reconcile/collection-plan.js";
import { planCollection } from "../../../../../src/core/reconcile/plan-collection.js";
import type { SyncReport } from "../../../../../src/features/sync/sync-report.js";
import { syncReportOf } from "../../../../support/sync-report-of.js";

const option = (name: string) => ({ name, label: { "en-US": name } });
const lastWritten = new Map(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"].map((name) => [name, { "en-US": name }] as const));
const base = { collection: "color", lastWritten, full: false, allowMassDelete: false, guard: DEFAULT_DELETION_GUARD };

describe("planning with approved held deletions", () => {
  it("deletes only the approved options and holds the newly planned one again", () => {
    // The PIM kept a and b: 10 of 12 go, the guard trips. 9 were approved; `l` is new.
    const plan = planCollection({
      ...base,
      desired: [option("a"), option("b")],
      approvedDeletions: new Set(["c", "d", "e", "f", "g", "h", "i", "j", "k"]),
    });
    expect(plan.deletes).toEqual(["c", "d", "e", "f", "g", "h", "i", "j", "k"]);
    expect(plan.heldBack).toMatchObject({ names: ["l"], reason: "would delete 10 of 12 options (more than 50%)" });
  });

  it("never deletes an approved option the PIM has again", () => {
    const plan = planCollection({
      ...base,
      desired: ["a", "b", "c"].map(option),
      approvedDeletions: new Set(["c", "d", "e", "f", "g", "h", "i", "j", "k", "l"]),
    });
    expect(plan.deletes).not.toContain("c");
    expect(plan.heldBack).toBeNull();
  });

  it("holds everything when nothing was approved", () => {
    const plan = planCollection({ ...base, desired: [option("a")] });
    expect(plan.deletes).toEqual([]);
    expect(plan.heldBack?.names).toHaveLength(11);
  });
});

describe("planning with deletions awaiting review in a pending plan", () => {
  const awaitingReview = { names: new Set(["c", "D"]), reason: "would delete 600 of 1000 options (more than 50%)" };

  it("never deletes them, though the guard would let them through, and holds them again with the plan's reason", () => {
    // Two of twelve go: far under the guard. Both wait for an admin (codes compared as the PIM does).
    const plan = planCollection({ ...base, desired: ["a", "b", "e", "f", "g", "h", "i", "j", "k", "l"].map(option), awaitingReview });
    expect(plan.deletes).toEqual([]);
    expect(plan.heldBack).toEqual({ names: ["c", "d"], reason: awaitingReview.reason });
    expect(plan.action).toBe("none");
  });

  it("deletes the other removals the guard lets through, and only those", () => {
    const plan = planCollection({ ...base, desired: ["a", "b", "f", "g", "h", "i", "j", "k", "l"].map(option), awaitingReview });
    expect(plan.deletes).toEqual(["e"]);
    expect(plan.heldBack?.names).toEqual(["c", "d"]);
  });

  it("holds them through --allow-mass-delete and a --full run: no whole-collection replace while one is planned", () => {
    const desired = ["a", "b", "e", "f", "g", "h", "i", "j", "k", "l"].map(option);
    const plan = planCollection({ ...base, desired, full: true, allowMassDelete: true, awaitingReview });
    expect(plan.action).toBe("update");
    expect(plan.deletes).toEqual([]);
    expect(plan.upserts).toHaveLength(desired.length);
    expect(plan.heldBack?.names).toEqual(["c", "d"]);
  });

  it("lets an approval of the same option win: the admin said yes", () => {
    const plan = planCollection({
      ...base,
      desired: ["a", "b", "e", "f", "g", "h", "i", "j", "k", "l"].map(option),
      awaitingReview,
      approvedDeletions: new Set(["c"]),
    });
    expect(plan.deletes).toEqual(["c"]);
    expect(plan.heldBack?.names).toEqual(["d"]);
  });

  it("leaves a collection with no state untouched: a replace would drop the held options", () => {
    const plan = planCollection({ ...base, lastWritten: null, desired: [option("a")], awaitingReview });
    expect(plan).toMatchObject({ action: "none", upserts: [], deletes: [], heldBack: { names: ["D", "c"] } });
  });
});

const report = (collections: Partial<SyncReport["collections"][number]>[]): SyncReport => syncReportOf(collections);

const plan = (id: string, collections: HeldPlan["collections"], approved: HeldPlan["approved"]): HeldPlan => ({
  id,
  project: 67,
  collections,
  heldAt: "2026-01-01T00:00:00.000Z",
  lastHeldAt: "2026-01-01T00:00:00.000Z",
  run: { job: "67/1", trigger: "schedule" },
  expiresAt: "2026-01-08T00:00:00.000Z",
  approved,
  revision: 0,
});
const origin = { job: "67/2", trigger: "schedule" as const };
const args = { origin, nowMs: Date.parse("2026-01-02T00:00:00.000Z"), expiryMs: 1000, newId: () => "new", whole: true };

describe("held plans after a run", () => {
  it("drops an approved plan once carried out, and keeps the new deletion as a new pending plan", () => {
    const approved = plan("p1", [{ collection: "color", options: ["c", "d"], reason: "r" }], { by: "ada", at: "2026-01-01T12:00:00.000Z" });
    const changes = reviewAfterRun({
      ...args,
      plans: [approved],
      report: report([{ deletes: 2, heldBack: { names: ["l"], reason: "would delete" } }]),
    });
    expect(changes.discard).toEqual([approved]);
    expect(changes.save).toEqual([
      {
        plan: expect.objectContaining({
          id: "new",
          approved: null,
          collections: [{ collection: "color", options: ["l"], reason: "would delete" }],
          expiresAt: "2026-01-02T00:00:01.000Z",
          run: origin,
        }),
        read: null,
      },
    ]);
  });

  it("keeps an approved plan whose collection could not be written", () => {
    const approved = plan("p1", [{ collection: "color", options: ["c"], reason: "r" }], { by: "ada", at: "2026-01-01T12:00:00.000Z" });
    const changes = reviewAfterRun({ ...args, plans: [approved], report: report([{ written: false, error: "503" }]) });
    expect(changes).toEqual({ save: [], discard: [], superseded: [] });
  });

  it("keeps the same pending plan (its id) when a run holds the same options again, and supersedes one it no longer holds", () => {
    const same = plan("p1", [{ collection: "color", options: ["b", "a"], reason: "old" }], null);
    const again = reviewAfterRun({ ...args, plans: [same], report: report([{ heldBack: { names: ["a", "b"], reason: "now" } }]) });
    expect(again).toEqual({
      save: [
        {
          plan: expect.objectContaining({
            id: "p1",
            heldAt: same.heldAt,
            lastHeldAt: "2026-01-02T00:00:00.000Z",
            collections: [{ collection: "color", options: ["a", "b"], reason: "now" }],
          }),
          read: same,
        },
      ],
      discard: [],
      superseded: [],
    });
    const gone = reviewAfterRun({ ...args, plans: [same], report: report([{}]) });
    expect(gone).toEqual({ save: [], discard: [same], superseded: [] });
    // A run that did not plan the collection (its read failed) leaves the plan as it is.
    expect(reviewAfterRun({ ...args, plans: [same], report: report([]) })).toEqual({ save: [], discard: [], superseded: [] });
  });

  it("adds an option-level run's held deletions to the pending plan: a removal arriving a few options at a time adds up", () => {
    const pending = plan("p1", [{ collection: "color", options: ["a", "b"], reason: "old" }], null);
    const changes = reviewAfterRun({
      ...args,
      plans: [pending],
      report: report([{ only: ["c", "d"], heldBack: { names: ["c", "d"], reason: "now" } }]),
    });
    expect(changes.discard).toEqual([pending]);
    expect(changes.save).toEqual([
      {
        plan: expect.objectContaining({ id: "new", collections: [{ collection: "color", options: ["a", "b", "c", "d"], reason: "now" }] }),
        read: null,
      },
    ]);
  });

  it("drops from the pending plan only the options an option-level run looked at and no longer holds", () => {
    const pending = plan("p1", [{ collection: "color", options: ["a", "b"], reason: "old" }], null);
    // `A` came back in the PIM (looked at, not held): compared as the PIM compares codes.
    const back = reviewAfterRun({ ...args, plans: [pending], report: report([{ only: ["A"] }]) });
    expect(back.save).toEqual([
      { plan: expect.objectContaining({ collections: [{ collection: "color", options: ["b"], reason: "old" }] }), read: null },
    ]);
    expect(back.discard).toEqual([pending]);
    // Looked at none of its options: the plan stays exactly as the admin saw it.
    expect(reviewAfterRun({ ...args, plans: [pending], report: report([{ only: ["z"] }]) })).toEqual({
      save: [],
      discard: [],
      superseded: [],
    });
  });

  it("settles of an approved plan only the options an option-level run looked at: the rest stay approved for a whole run", () => {
    const approved = plan("p1", [{ collection: "color", options: ["c", "d", "e"], reason: "r" }], {
      by: "ada",
      at: "2026-01-01T12:00:00.000Z",
    });
    // A PIM event for `z`, another option of the collection: nothing of the plan was looked at.
    const other = reviewAfterRun({ ...args, whole: false, plans: [approved], report: report([{ only: ["z"], written: true }]) });
    expect(other).toEqual({ save: [], discard: [], superseded: [] });
    // An event for `d`: deleted, so settled; c and e still wait for a run that reads them.
    const one = reviewAfterRun({ ...args, whole: false, plans: [approved], report: report([{ only: ["D"], deletes: 1, written: true }]) });
    expect(one.save).toEqual([
      {
        plan: expect.objectContaining({ id: "p1", collections: [{ collection: "color", options: ["c", "e"], reason: "r" }] }),
        read: approved,
      },
    ]);
    expect(one.discard).toEqual([]);
  });

  it("supersedes, with its reason, an approval a whole run can never carry out, and never in a targeted run or after a failed read", () => {
    const approved = plan(
      "p1",
      [
        { collection: "color", options: ["c"], reason: "r" },
        { collection: "size", options: ["s"], reason: "r" },
      ],
      { by: "ada", at: "2026-01-01T12:00:00.000Z" },
    );
    // The whole run derived neither collection: color's attribute is gone, size is missing in the service.
    const whole = reviewAfterRun({
      ...args,
      plans: [approved],
      report: { ...report([]), missing: [{ collection: "size", field: "size", attribute: "size" }] },
    });
    expect(whole.discard).toEqual([approved]);
    expect(whole.superseded).toEqual([
      { plan: approved, collection: approved.collections[0], reason: "the PIM no longer has the attribute it is derived from" },
      { plan: approved, collection: approved.collections[1], reason: "the service has no such collection any more" },
    ]);
    expect(reviewAfterRun({ ...args, whole: false, plans: [approved], report: report([]) })).toEqual({
      save: [],
      discard: [],
      superseded: [],
    });
    const readFailed = reviewAfterRun({
      ...args,
      plans: [approved],
      report: {
        ...report([]),
        unwritten: [
          { collection: "color", attribute: "color", permanent: false },
          { collection: "size", attribute: "size", permanent: false },
        ],
      },
    });
    expect(readFailed).toEqual({ save: [], discard: [], superseded: [] });
  });

  it("merges the pending plans a run touched into one, and leaves a plan it did not touch alone", () => {
    const color = plan("p1", [{ collection: "color", options: ["a"], reason: "r1" }], null);
    const size = plan("p2", [{ collection: "size", options: ["s"], reason: "r2" }], null);
    const changes = reviewAfterRun({ ...args, plans: [color, size], report: report([{ heldBack: { names: ["a", "b"], reason: "now" } }]) });
    expect(changes.discard).toEqual([color]);
    expect(changes.save).toEqual([
      { plan: expect.objectContaining({ collections: [{ collection: "color", options: ["a", "b"], reason: "now" }] }), read: null },
    ]);
  });
});
