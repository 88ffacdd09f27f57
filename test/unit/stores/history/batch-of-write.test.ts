import { describe, expect, it } from "vitest";
import { batchOfWrite, type WriteContext } from "../../../../src/stores/history/batch-of-write.js";
import { entriesOfBatch, historyBatchSchema } from "../../../../src/stores/history/history-batch.js";
import type { CollectionPlan } from "../../../../src/core/reconcile/collection-plan.js";
import { splitPlanWrites } from "../../../../src/core/reconcile/split-plan-writes.js";

const origin = { job: "67/9", trigger: "schedule" as const };
const at = "2026-01-02T00:00:00.000Z";
const lastWritten = new Map([
  ["red", { "en-US": "Red" }],
  ["Teal", { "en-US": "Teal" }],
  ["white", { "en-US": "White" }],
  ["blue", { "en-US": "Blue" }],
]);

/** As a store keeps and reads it back: through JSON and the stored form's schema. */
function entriesOf(plan: CollectionPlan, context: Omit<WriteContext, "plan" | "origin" | "at">, maxOptionsPerWrite = 5000) {
  return splitPlanWrites(plan, maxOptionsPerWrite).flatMap((write) =>
    entriesOfBatch(historyBatchSchema.parse(JSON.parse(JSON.stringify(batchOfWrite(write, { ...context, plan, origin, at }))))),
  );
}

describe("the history batch of a write", () => {
  it("names each option's kind, labels and reason; a rename is one entry", () => {
    const plan: CollectionPlan = {
      collection: "color",
      action: "update",
      reason: "changed",
      upserts: [
        { name: "red", label: { "en-US": "Scarlet" } },
        { name: "purple", label: { "en-US": "Purple" } },
      ],
      deletes: ["white"],
      heldBack: null,
      kept: [],
      renames: [{ from: ["Teal"], option: { name: "teal", label: { "en-US": "Teal" } } }],
    };
    const entries = entriesOf(plan, {
      lastWritten,
      deletionsConfirmedAt: "2026-01-01T23:59:59.000Z",
      approvedIn: new Map([["white", "h1"]]),
    });
    expect(entries.map((e) => [e.option, e.kind])).toEqual([
      ["white", "deleted"],
      ["teal", "renamed"],
      ["red", "relabelled"],
      ["purple", "added"],
    ]);
    expect(entries[0]).toMatchObject({
      labelsBefore: { "en-US": "White" },
      labelsAfter: null,
      job: "67/9",
      trigger: "schedule",
      at,
      reason:
        "the PIM no longer has it (confirmed by a read of the PIM at 2026-01-01T23:59:59.000Z); held back by the deletion guard, then approved in held plan h1",
    });
    expect(entries[1]).toMatchObject({ renamedFrom: ["Teal"], labelsBefore: { "en-US": "Teal" }, labelsAfter: { "en-US": "Teal" } });
    expect(entries[2]).toMatchObject({ labelsBefore: { "en-US": "Red" }, labelsAfter: { "en-US": "Scarlet" } });
    expect(entries[3]).toMatchObject({ labelsBefore: null, labelsAfter: { "en-US": "Purple" }, reason: "new in the PIM" });
    expect(entries.filter((e) => e.kind !== "renamed").every((e) => !("renamedFrom" in e))).toBe(true);
  });

  it("a --full replace records every option written as replaced, labels only where the state knew other ones or none, and every known option it dropped as deleted", () => {
    const plan: CollectionPlan = {
      collection: "color",
      action: "replace",
      reason: "full",
      upserts: [
        { name: "red", label: { "en-US": "Red" } },
        { name: "blue", label: { "en-US": "Navy" } },
        { name: "pink", label: { "en-US": "Pink" } },
      ],
      deletes: [],
      heldBack: null,
      kept: [],
    };
    const entries = entriesOf(plan, { lastWritten, deletionsConfirmedAt: null });
    expect(entries.map((e) => [e.option, e.kind]).sort()).toEqual([
      ["Teal", "deleted"],
      ["blue", "replaced"],
      ["pink", "replaced"],
      ["red", "replaced"],
      ["white", "deleted"],
    ]);
    const byOption = new Map(entries.map((e) => [e.option, e]));
    expect(byOption.get("red")).toMatchObject({ reason: "replaced by a --full run", labelsBefore: null, labelsAfter: null });
    expect(byOption.get("blue")).toMatchObject({ labelsBefore: { "en-US": "Blue" }, labelsAfter: { "en-US": "Navy" } });
    expect(byOption.get("pink")).toMatchObject({ labelsBefore: null, labelsAfter: { "en-US": "Pink" } });
    expect(byOption.get("white")).toMatchObject({ labelsBefore: { "en-US": "White" }, labelsAfter: null });
  });

  it("stores what a first sync's replace shares once per chunk and each option as its code alone", () => {
    const upserts = Array.from({ length: 12 }, (_, index) => ({
      name: `o${index}`,
      label: { "en-US": `Option ${index}`, "fr-FR": `Option ${index}` },
    }));
    const plan: CollectionPlan = {
      collection: "size",
      action: "replace",
      reason: "no-state",
      upserts,
      deletes: [],
      heldBack: null,
      kept: [],
    };
    const batches = splitPlanWrites(plan, 5).map((write) =>
      batchOfWrite(write, { plan, lastWritten: null, origin, at, deletionsConfirmedAt: null }),
    );
    expect(batches).toHaveLength(3);
    expect(batches[0]).toEqual([
      {
        collection: "size",
        kind: "replaced",
        reason: "no state for the collection: replaced whole (first sync, or state lost)",
        job: "67/9",
        trigger: "schedule",
        at,
        options: ["o0", "o1", "o2", "o3", "o4"],
      },
    ]);
    expect(entriesOf(plan, { lastWritten: null, deletionsConfirmedAt: null }, 5).map((e) => e.option)).toEqual(
      upserts.map((option) => option.name),
    );
  });
});
