import { describe, expect, it } from "vitest";
import { entriesOfWrite } from "../../../src/history/entries-of-write.js";
import type { CollectionPlan } from "../../../src/reconcile/collection-plan.js";
import { splitPlanWrites } from "../../../src/reconcile/split-plan-writes.js";

const origin = { job: "67/9", trigger: "schedule" as const };
const at = "2026-01-02T00:00:00.000Z";
const lastWritten = new Map([
  ["red", { "en-US": "Red" }],
  ["Teal", { "en-US": "Teal" }],
  ["white", { "en-US": "White" }],
  ["blue", { "en-US": "Blue" }],
]);

describe("the history entries of a write", () => {
  it("names each option's kind, labels and reason; a rename is one entry", () => {
    const plan: CollectionPlan = {
      collection: "color",
      action: "update",
      reason: "changed",
      upserts: [{ name: "red", label: { "en-US": "Scarlet" } }, { name: "purple", label: { "en-US": "Purple" } }],
      deletes: ["white"],
      heldBack: null,
      kept: [],
      renames: [{ from: ["Teal"], option: { name: "teal", label: { "en-US": "Teal" } } }],
    };
    const entries = splitPlanWrites(plan, 5000).flatMap((write) => entriesOfWrite(write, { plan, lastWritten, origin, at, deletionsConfirmedAt: "2026-01-01T23:59:59.000Z", approvedIn: new Map([["white", "h1"]]) }));
    expect(entries.map((e) => [e.option, e.kind])).toEqual([["white", "deleted"], ["teal", "renamed"], ["red", "relabelled"], ["purple", "added"]]);
    expect(entries[0]).toMatchObject({ labelsBefore: { "en-US": "White" }, labelsAfter: null, job: "67/9", trigger: "schedule", at, reason: "the PIM no longer has it (confirmed by a read of the PIM at 2026-01-01T23:59:59.000Z); held back by the deletion guard, then approved in held plan h1" });
    expect(entries[1]).toMatchObject({ renamedFrom: ["Teal"], labelsBefore: { "en-US": "Teal" } });
    expect(entries[2]).toMatchObject({ labelsBefore: { "en-US": "Red" }, labelsAfter: { "en-US": "Scarlet" } });
  });

  it("a --full replace records every option written as replaced and every known option it dropped as deleted", () => {
    const plan: CollectionPlan = { collection: "color", action: "replace", reason: "full", upserts: [{ name: "red", label: { "en-US": "Red" } }], deletes: [], heldBack: null, kept: [] };
    const [write] = splitPlanWrites(plan, 5000);
    if (!write) throw new Error("no write");
    const entries = entriesOfWrite(write, { plan, lastWritten, origin, at, deletionsConfirmedAt: null });
    expect(entries.map((e) => [e.option, e.kind]).sort()).toEqual([["Teal", "deleted"], ["blue", "deleted"], ["red", "replaced"], ["white", "deleted"]]);
    expect(entries.find((e) => e.option === "red")?.reason).toBe("replaced by a --full run");
  });
});
