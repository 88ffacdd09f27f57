import { describe, expect, it } from "vitest";
import type { CollectionPlan } from "../../../../src/core/reconcile/collection-plan.js";
import { splitPlanWrites, type OptionsWrite } from "../../../../src/core/reconcile/split-plan-writes.js";
import { lcg, many, opt } from "./helpers.js";

function planOf(action: CollectionPlan["action"], upserts = many(0), deletes: string[] = []): CollectionPlan {
  return {
    collection: "c",
    action,
    reason: action === "replace" ? "no-state" : action === "none" ? "unchanged" : "changed",
    upserts,
    deletes,
    heldBack: null,
    kept: [],
  };
}

function itemsOf(writes: readonly OptionsWrite[]): { deletes: string[]; upserts: string[]; order: string[] } {
  const deletes = writes.flatMap((w) => w.delete_options);
  const upserts = writes.flatMap((w) => w.upsert_options.map((o) => o.name));
  const order = writes.flatMap((w) => [...w.delete_options.map((d) => `-${d}`), ...w.upsert_options.map((o) => `+${o.name}`)]);
  return { deletes, upserts, order };
}

describe("splitPlanWrites", () => {
  it("writes nothing for a plan with nothing to do", () => {
    expect(splitPlanWrites(planOf("none"), 10)).toEqual([]);
  });

  it("writes nothing for action none even if the plan carries held-back names", () => {
    expect(splitPlanWrites({ ...planOf("none"), heldBack: { names: ["a"], reason: "r" } }, 10)).toEqual([]);
  });

  it("sends a small update as one write without delete_all", () => {
    const upserts = [opt("a"), opt("b")];
    expect(splitPlanWrites(planOf("update", upserts, ["x"]), 10)).toEqual<OptionsWrite[]>([
      { upsert_options: upserts, delete_options: ["x"], delete_all: false },
    ]);
  });

  it("sends a small replace as one write with delete_all", () => {
    const upserts = [opt("a")];
    expect(splitPlanWrites(planOf("replace", upserts), 10)).toEqual<OptionsWrite[]>([
      { upsert_options: upserts, delete_options: [], delete_all: true },
    ]);
  });

  it("still sends one delete_all write for a replace with no option (empties the collection)", () => {
    expect(splitPlanWrites(planOf("replace"), 10)).toEqual<OptionsWrite[]>([{ upsert_options: [], delete_options: [], delete_all: true }]);
  });

  it("fits a plan of exactly max items in one write", () => {
    expect(splitPlanWrites(planOf("update", many(3), ["x", "y"]), 5)).toHaveLength(1);
  });

  it("chunks deletes first, then fills the room with upserts", () => {
    const writes = splitPlanWrites(planOf("update", many(7), ["d0", "d1", "d2", "d3", "d4"]), 3);
    expect(writes.map((w) => ({ d: w.delete_options, u: w.upsert_options.map((o) => o.name), all: w.delete_all }))).toEqual([
      { d: ["d0", "d1", "d2"], u: [], all: false },
      { d: ["d3", "d4"], u: ["o0"], all: false },
      { d: [], u: ["o1", "o2", "o3"], all: false },
      { d: [], u: ["o4", "o5", "o6"], all: false },
    ]);
  });

  it("sets delete_all on the first write of a chunked replace only", () => {
    const writes = splitPlanWrites(planOf("replace", many(10)), 4);
    expect(writes.map((w) => w.delete_all)).toEqual([true, false, false]);
    expect(writes.map((w) => w.upsert_options.length)).toEqual([4, 4, 2]);
    expect(itemsOf(writes).upserts).toEqual(many(10).map((o) => o.name));
  });

  it.each([0, -5, 0.5, Number.NEGATIVE_INFINITY])("treats a maximum of %s as 1", (max) => {
    const writes = splitPlanWrites(planOf("update", many(2), ["x"]), max);
    expect(writes.map((w) => [...w.delete_options, ...w.upsert_options.map((o) => o.name)])).toEqual([["x"], ["o0"], ["o1"]]);
  });

  it("rounds a fractional maximum down", () => {
    const writes = splitPlanWrites(planOf("update", many(5)), 2.9);
    expect(writes.map((w) => w.upsert_options.length)).toEqual([2, 2, 1]);
  });

  it("takes an infinite maximum as one write", () => {
    expect(splitPlanWrites(planOf("update", many(50), ["a", "b"]), Number.POSITIVE_INFINITY)).toHaveLength(1);
  });

  it("keeps every item once, deletes before upserts, each write within the maximum (seeded)", () => {
    const random = lcg(20240601);
    for (let round = 0; round < 300; round += 1) {
      const deletes = Array.from({ length: random.int(15) }, (_, i) => `d${i}`);
      const upserts = many(random.int(25));
      const action = random.chance(0.5) ? "update" : "replace";
      const max = 1 + random.int(8);
      const writes = splitPlanWrites(planOf(action, upserts, action === "replace" ? [] : deletes), max);
      const expectedDeletes = action === "replace" ? [] : deletes;
      const total = expectedDeletes.length + upserts.length;
      const items = itemsOf(writes);
      expect(items.deletes).toEqual(expectedDeletes);
      expect(items.upserts).toEqual(upserts.map((o) => o.name));
      expect(items.order).toEqual([...expectedDeletes.map((d) => `-${d}`), ...upserts.map((o) => `+${o.name}`)]);
      expect(writes).toHaveLength(Math.max(1, Math.ceil(total / max)));
      for (const [index, write] of writes.entries()) {
        expect(write.delete_options.length + write.upsert_options.length).toBeLessThanOrEqual(max);
        if (total > 0) expect(write.delete_options.length + write.upsert_options.length).toBeGreaterThan(0);
        expect(write.delete_all).toBe(action === "replace" && index === 0);
      }
    }
  });

  it("does not change the plan", () => {
    const plan = planOf("update", many(5), ["a", "b"]);
    const copy = structuredClone(plan);
    splitPlanWrites(plan, 2);
    expect(plan).toEqual(copy);
  });
});

describe("splitPlanWrites: renames (a code the PIM now spells differently)", () => {
  const renamed = (from: string[], to: string) => ({ from, option: opt(to) });

  it("puts each rename's deletion and upsert in one request, before other deletions and upserts", () => {
    const plan: CollectionPlan = {
      ...planOf("update", [opt("new")], ["gone"]),
      renames: [renamed(["Teal"], "teal"), renamed(["RED", "Red"], "red")],
    };
    expect(splitPlanWrites(plan, 100)).toEqual([
      { delete_options: ["Teal", "RED", "Red", "gone"], upsert_options: [opt("teal"), opt("red"), opt("new")], delete_all: false },
    ]);
  });

  it("never splits a rename across requests, even when it does not fit the room left", () => {
    const renames = Array.from({ length: 5 }, (_, i) => renamed([`O${i}`], `o${i}`));
    const writes = splitPlanWrites({ ...planOf("update", [opt("x")], ["y"]), renames }, 3);
    for (const write of writes) {
      const upserted = new Set(write.upsert_options.map((o) => o.name.toLowerCase()));
      for (const name of write.delete_options.filter((d) => /^O\d$/.test(d))) expect(upserted.has(name.toLowerCase()), name).toBe(true);
      expect(write.delete_options.length + write.upsert_options.length).toBeLessThanOrEqual(3);
    }
    expect(itemsOf(writes).upserts.sort()).toEqual(["o0", "o1", "o2", "o3", "o4", "x"]);
    expect(itemsOf(writes).deletes.sort()).toEqual(["O0", "O1", "O2", "O3", "O4", "y"]);
  });

  it("sends a rename larger than a request alone", () => {
    const writes = splitPlanWrites({ ...planOf("update"), renames: [renamed(["A", "a_"], "a")] }, 1);
    expect(writes).toEqual([{ delete_options: ["A", "a_"], upsert_options: [opt("a")], delete_all: false }]);
  });
});
