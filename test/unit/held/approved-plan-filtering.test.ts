import { describe, expect, it } from "vitest";
import { reviewAfterRun } from "../../../src/features/sync/held/review-after-run.js";
import type { HeldPlan } from "../../../src/features/sync/held/held-plan.js";
import { DEFAULT_DELETION_GUARD } from "../../../src/core/reconcile/collection-plan.js";
import { planCollection } from "../../../src/core/reconcile/plan-collection.js";
import type { SyncReport } from "../../../src/features/sync/sync-report.js";
import { syncReportOf } from "../../support/sync-report-of.js";

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
const args = { origin, nowMs: Date.parse("2026-01-02T00:00:00.000Z"), expiryMs: 1000, newId: () => "new" };

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
    expect(changes).toEqual({ save: [], discard: [] });
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
    });
    const gone = reviewAfterRun({ ...args, plans: [same], report: report([{}]) });
    expect(gone).toEqual({ save: [], discard: [same] });
    // A run that did not plan the collection (its read failed) leaves the plan as it is.
    expect(reviewAfterRun({ ...args, plans: [same], report: report([]) })).toEqual({ save: [], discard: [] });
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
    expect(reviewAfterRun({ ...args, plans: [pending], report: report([{ only: ["z"] }]) })).toEqual({ save: [], discard: [] });
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
