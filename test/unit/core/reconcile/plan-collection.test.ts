import { describe, expect, it } from "vitest";
import type { CollectionPlan } from "../../../../src/core/reconcile/collection-plan.js";
import { GUARD, many, opt, plan, state } from "./helpers.js";

/** Recently added options by name (their labels do not matter here). */
function recent(...names: string[]): Map<string, Record<string, string>> {
  return new Map(names.map((name) => [name, {}]));
}

describe("planCollection: no state", () => {
  it("replaces with every desired option", () => {
    const desired = [opt("red"), opt("blue")];
    expect(plan({ desired, lastWritten: null })).toEqual<CollectionPlan>({
      collection: "color",
      action: "replace",
      reason: "no-state",
      upserts: desired,
      deletes: [],
      heldBack: null,
      kept: [],
    });
  });

  it("replaces even with no desired option (the collection must end empty)", () => {
    expect(plan({ desired: [], lastWritten: null })).toEqual<CollectionPlan>({
      collection: "color",
      action: "replace",
      reason: "no-state",
      upserts: [],
      deletes: [],
      heldBack: null,
      kept: [],
    });
  });

  it("says no-state whatever --full and --allow-mass-delete say", () => {
    for (const full of [false, true]) {
      for (const allowMassDelete of [false, true]) {
        const result = plan({ desired: [opt("a")], lastWritten: null, full, allowMassDelete });
        expect(result.action).toBe("replace");
        expect(result.reason).toBe("no-state");
      }
    }
  });
});

describe("planCollection: differences", () => {
  it("does nothing when the state matches", () => {
    const desired = [opt("red", { "en-US": "Red", "fr-FR": "Rouge" }), opt("blue")];
    expect(plan({ desired, lastWritten: state(...desired) })).toEqual<CollectionPlan>({
      collection: "color",
      action: "none",
      reason: "unchanged",
      upserts: [],
      deletes: [],
      heldBack: null,
      kept: [],
    });
  });

  it("does nothing with no desired option and an empty state", () => {
    expect(plan({ desired: [], lastWritten: new Map() })).toMatchObject({ action: "none", reason: "unchanged", heldBack: null });
  });

  it("ignores the order of label keys", () => {
    const desired = [opt("red", { "en-US": "Red", "fr-FR": "Rouge", "de-DE": "Rot" })];
    const lastWritten = state(opt("red", { "de-DE": "Rot", "fr-FR": "Rouge", "en-US": "Red" }));
    expect(plan({ desired, lastWritten }).action).toBe("none");
  });

  it("ignores the order of options", () => {
    const desired = [opt("a"), opt("b"), opt("c")];
    expect(plan({ desired, lastWritten: state(opt("c"), opt("a"), opt("b")) }).action).toBe("none");
  });

  it("upserts a new option only", () => {
    const result = plan({ desired: [opt("red"), opt("green"), opt("blue")], lastWritten: state(opt("red"), opt("blue")) });
    expect(result).toEqual<CollectionPlan>({
      collection: "color",
      action: "update",
      reason: "changed",
      upserts: [opt("green")],
      deletes: [],
      heldBack: null,
      kept: [],
    });
  });

  it.each([
    ["changed text", { "en-US": "Red" }, { "en-US": "Crimson" }],
    ["an added locale", { "en-US": "Red" }, { "en-US": "Red", "fr-FR": "Rouge" }],
    ["a removed locale", { "en-US": "Red", "fr-FR": "Rouge" }, { "en-US": "Red" }],
    ["a locale swapped for another with the same text", { "en-US": "Red" }, { "en-GB": "Red" }],
    ["all labels gone", { "en-US": "Red" }, {}],
    ["labels appearing", {}, { "en-US": "Red" }],
    ["a change of case", { "en-US": "Red" }, { "en-US": "red" }],
    ["a trailing space", { "en-US": "Red" }, { "en-US": "Red " }],
  ])("upserts a relabelled option: %s", (_case, before, after) => {
    const result = plan({ desired: [opt("red", after), opt("blue")], lastWritten: state(opt("red", before), opt("blue")) });
    expect(result).toEqual<CollectionPlan>({
      collection: "color",
      action: "update",
      reason: "changed",
      upserts: [opt("red", after)],
      deletes: [],
      heldBack: null,
      kept: [],
    });
  });

  it("deletes removed options, in the order they were last written", () => {
    const lastWritten = state(opt("z"), opt("a"), opt("m"), opt("keep"));
    const result = plan({ desired: [opt("keep")], lastWritten });
    expect(result).toEqual<CollectionPlan>({
      collection: "color",
      action: "update",
      reason: "changed",
      upserts: [],
      deletes: ["z", "a", "m"],
      heldBack: null,
      kept: [],
    });
  });

  it("combines new, relabelled and removed options, keeping the desired order for upserts", () => {
    const lastWritten = state(opt("a", { "en-US": "A" }), opt("b", { "en-US": "B" }), opt("c"), opt("d"));
    const desired = [opt("e"), opt("b", { "en-US": "B2" }), opt("a", { "en-US": "A" }), opt("c")];
    const result = plan({ desired, lastWritten });
    expect(result.action).toBe("update");
    expect(result.reason).toBe("changed");
    expect(result.upserts).toEqual([opt("e"), opt("b", { "en-US": "B2" })]);
    expect(result.deletes).toEqual(["d"]);
    expect(result.heldBack).toBeNull();
  });

  it("compares names case-insensitively, as the PIM compares codes: a case variant is renamed, never deleted as gone", () => {
    // Written as `Teal` (an earlier add-options), listed by the PIM as `teal`.
    const result = plan({ desired: [opt("teal", { "en-US": "Teal" })], lastWritten: state(opt("Teal", { "en-US": "Teal" })) });
    expect(result.action).toBe("update");
    expect(result.deletes).toEqual([]);
    expect(result.upserts).toEqual([]);
    expect(result.renames).toEqual([{ from: ["Teal"], option: opt("teal", { "en-US": "Teal" }) }]);
  });

  it("renames with the PIM's labels, and a rename does not count toward the deletion guard", () => {
    const lastWritten = state(...many(12, "O"));
    const desired = many(12, "o").map((option) => ({ ...option, label: { "en-US": "new" } }));
    const result = plan({ desired, lastWritten });
    expect(result.heldBack).toBeNull();
    expect(result.deletes).toEqual([]);
    expect(result.renames).toHaveLength(12);
    expect(result.renames?.[0]).toEqual({ from: ["O0"], option: opt("o0", { "en-US": "new" }) });
  });

  it("removes every other spelling when the state holds two spellings of one code", () => {
    const lastWritten = state(opt("Teal", { "en-US": "old" }), opt("teal", { "en-US": "Teal" }));
    const result = plan({ desired: [opt("teal", { "en-US": "Teal" })], lastWritten });
    expect(result.deletes).toEqual([]);
    expect(result.renames).toEqual([{ from: ["Teal"], option: opt("teal", { "en-US": "Teal" }) }]);
  });

  it("keeps a recently added option whose spelling differs from the PIM's list only in case", () => {
    const lastWritten = state(opt("a"), opt("b"), opt("c"), opt("Teal"));
    const result = plan({ desired: [opt("a"), opt("b"), opt("c")], lastWritten, recentlyAdded: recent("teal") });
    expect(result.deletes).toEqual([]);
    expect(result.kept).toEqual(["Teal"]);
  });

  it("writes the PIM's own spelling on a replace, without a case duplicate from recent additions", () => {
    const result = plan({ desired: [opt("teal")], lastWritten: null, recentlyAdded: recent("Teal") });
    expect(result.upserts).toEqual([opt("teal")]);
    expect(result.kept).toEqual([]);
  });

  it("copies the collection name into the plan", () => {
    expect(plan({ collection: "size-en_US", desired: [], lastWritten: null }).collection).toBe("size-en_US");
  });
});

describe("planCollection: deletion guard", () => {
  it.each([
    // removed, last written, held back? (guard: more than half and at least 10)
    [5, 10, false], // exactly half
    [9, 10, false], // 9 of 10, min_count 10
    [10, 19, true], // 10 of 19
    [10, 20, false], // 10 of 20: exactly half
    [11, 20, true],
    [15, 15, true], // every option renamed: 15 of 15
    [1, 1, false], // the only option renamed: fewer than min_count
  ])("%i of %i removed: held back %s", (removed, total, held) => {
    const lastWritten = state(...many(total));
    // Keep the first total-removed; add one brand-new option so desired is never empty.
    const desired = [...many(total).slice(0, total - removed), opt("new")];
    const result = plan({ desired, lastWritten });
    const removedNames = many(total)
      .slice(total - removed)
      .map((o) => o.name);
    if (held) {
      expect(result.deletes).toEqual([]);
      expect(result.heldBack?.names).toEqual(removedNames);
      expect(result.heldBack?.reason).toBe(`would delete ${removed} of ${total} options (more than 50%)`);
    } else {
      expect(result.deletes).toEqual(removedNames);
      expect(result.heldBack).toBeNull();
    }
    // The new option is written either way.
    expect(result.upserts).toEqual([opt("new")]);
    expect(result.action).toBe("update");
  });

  it("holds back deletions with nothing else to do as action none, with the held-back names", () => {
    const lastWritten = state(...many(19));
    const result = plan({ desired: many(9), lastWritten });
    expect(result).toEqual<CollectionPlan>({
      collection: "color",
      action: "none",
      reason: "unchanged",
      upserts: [],
      deletes: [],
      heldBack: {
        names: many(19)
          .slice(9)
          .map((o) => o.name),
        reason: "would delete 10 of 19 options (more than 50%)",
      },
      kept: [],
    });
  });

  it("still writes the other upserts while deletions are held back", () => {
    const lastWritten = state(...many(20));
    const desired = [opt("o0", { "en-US": "changed" }), opt("fresh")];
    const result = plan({ desired, lastWritten });
    expect(result.action).toBe("update");
    expect(result.reason).toBe("changed");
    expect(result.upserts).toEqual([opt("o0", { "en-US": "changed" }), opt("fresh")]);
    expect(result.deletes).toEqual([]);
    expect(result.heldBack?.names).toHaveLength(19);
  });

  it.each([1, 2, 9, 10, 500])("holds back everything when the PIM returned no option (%i last written), whatever min_count", (count) => {
    const result = plan({ desired: [], lastWritten: state(...many(count)) });
    expect(result.action).toBe("none");
    expect(result.deletes).toEqual([]);
    expect(result.heldBack).toEqual({
      names: many(count).map((o) => o.name),
      reason: `the PIM returned no option where ${count} were last written`,
    });
  });

  it("allowMassDelete lets a mass deletion through", () => {
    const result = plan({ desired: many(9), lastWritten: state(...many(19)), allowMassDelete: true });
    expect(result).toEqual<CollectionPlan>({
      collection: "color",
      action: "update",
      reason: "changed",
      upserts: [],
      deletes: many(19)
        .slice(9)
        .map((o) => o.name),
      heldBack: null,
      kept: [],
    });
  });

  it("allowMassDelete lets the deletion of everything through when the PIM returned no option", () => {
    const result = plan({ desired: [], lastWritten: state(opt("a"), opt("b")), allowMassDelete: true });
    expect(result).toMatchObject({ action: "update", reason: "changed", upserts: [], deletes: ["a", "b"], heldBack: null });
  });

  it("uses the guard it is given", () => {
    const lastWritten = state(...many(4));
    const strict = plan({ desired: many(3), lastWritten, guard: { maxFraction: 0, minCount: 1 } });
    expect(strict.heldBack?.names).toEqual(["o3"]);
    expect(strict.deletes).toEqual([]);
    const lax = plan({ desired: many(1), lastWritten, guard: { maxFraction: 1, minCount: 1 } });
    expect(lax.deletes).toEqual(["o1", "o2", "o3"]);
    expect(lax.heldBack).toBeNull();
    expect(GUARD).toEqual({ maxFraction: 0.5, minCount: 10 });
  });
});

describe("planCollection: --full", () => {
  it("replaces with every desired option when the guard lets it (reason full)", () => {
    const desired = [opt("a"), opt("b", { "en-US": "B2" })];
    const lastWritten = state(opt("a"), opt("b"), opt("gone"));
    expect(plan({ desired, lastWritten, full: true })).toEqual<CollectionPlan>({
      collection: "color",
      action: "replace",
      reason: "full",
      upserts: desired,
      deletes: [],
      heldBack: null,
      kept: [],
    });
  });

  it("replaces even when nothing changed", () => {
    const desired = [opt("a"), opt("b")];
    expect(plan({ desired, lastWritten: state(...desired), full: true })).toMatchObject({ action: "replace", reason: "full" });
  });

  it("under a tripped guard, rewrites every desired option and deletes nothing (update, reason full)", () => {
    const desired = many(9);
    const lastWritten = state(...many(19));
    expect(plan({ desired, lastWritten, full: true })).toEqual<CollectionPlan>({
      collection: "color",
      action: "update",
      reason: "full",
      upserts: desired,
      deletes: [],
      heldBack: {
        names: many(19)
          .slice(9)
          .map((o) => o.name),
        reason: "would delete 10 of 19 options (more than 50%)",
      },
      kept: [],
    });
  });

  it("under a tripped guard with no desired option, writes nothing and holds everything back", () => {
    const result = plan({ desired: [], lastWritten: state(opt("a")), full: true });
    expect(result.action).toBe("none");
    expect(result.upserts).toEqual([]);
    expect(result.deletes).toEqual([]);
    expect(result.heldBack?.names).toEqual(["a"]);
  });

  it("with allowMassDelete, replaces even when the guard would trip", () => {
    const desired = many(9);
    expect(plan({ desired, lastWritten: state(...many(19)), full: true, allowMassDelete: true })).toMatchObject({
      action: "replace",
      reason: "full",
      upserts: desired,
      deletes: [],
      heldBack: null,
    });
  });
});

describe("planCollection: purity", () => {
  it("gives the same plan for the same input and changes neither input", () => {
    const desired = [opt("a", { "en-US": "A" }), opt("b")];
    const lastWritten = state(opt("a", { "en-US": "old" }), opt("c"));
    const desiredCopy = structuredClone(desired);
    const stateCopy = new Map(lastWritten);
    const first = plan({ desired, lastWritten });
    const second = plan({ desired, lastWritten });
    expect(first).toEqual(second);
    expect(desired).toEqual(desiredCopy);
    expect(lastWritten).toEqual(stateCopy);
  });
});

describe("planCollection: recently added options (add-options)", () => {
  it("keeps a recently added name the PIM does not list yet instead of deleting it", () => {
    const lastWritten = state(opt("red"), opt("added"), opt("gone"));
    const result = plan({ desired: [opt("red")], lastWritten, recentlyAdded: recent("added") });
    expect(result).toEqual<CollectionPlan>({
      collection: "color",
      action: "update",
      reason: "changed",
      upserts: [],
      deletes: ["gone"],
      heldBack: null,
      kept: ["added"],
    });
  });

  it("plans nothing when the only missing names were recently added", () => {
    const result = plan({ desired: [opt("red")], lastWritten: state(opt("red"), opt("a1"), opt("a2")), recentlyAdded: recent("a1", "a2") });
    expect(result).toEqual<CollectionPlan>({
      collection: "color",
      action: "none",
      reason: "unchanged",
      upserts: [],
      deletes: [],
      heldBack: null,
      kept: ["a1", "a2"],
    });
  });

  it("lists as kept only names missing from the PIM, not recent names it already lists", () => {
    const result = plan({
      desired: [opt("added")],
      lastWritten: state(opt("added"), opt("old")),
      recentlyAdded: recent("added", "unknown"),
    });
    expect(result.kept).toEqual([]);
    expect(result.deletes).toEqual(["old"]);
  });

  it("does not count kept names as deletions for the guard", () => {
    // 12 of 20 missing, but 3 were just added: 9 deletions, fewer than min_count 10.
    const all = many(20);
    const recentlyAdded = recent("o8", "o9", "o10");
    const result = plan({ desired: all.slice(0, 8), lastWritten: state(...all), recentlyAdded });
    expect(result.heldBack).toBeNull();
    expect(result.kept).toEqual(["o8", "o9", "o10"]);
    expect(result.deletes).toEqual(all.slice(11).map((o) => o.name));
  });

  it("holds back only the removable names when the guard trips, still keeping the recent ones", () => {
    const all = many(20);
    const result = plan({ desired: all.slice(0, 5), lastWritten: state(...all), recentlyAdded: recent("o5") });
    expect(result.deletes).toEqual([]);
    expect(result.kept).toEqual(["o5"]);
    expect(result.heldBack?.names).toEqual(all.slice(6).map((o) => o.name));
  });

  it("under --full with names to keep, rewrites every desired option and deletes only the removable (no replace)", () => {
    const desired = [opt("a"), opt("b")];
    const result = plan({
      desired,
      lastWritten: state(opt("a"), opt("b"), opt("recent"), opt("gone")),
      full: true,
      recentlyAdded: recent("recent"),
    });
    expect(result).toEqual<CollectionPlan>({
      collection: "color",
      action: "update",
      reason: "full",
      upserts: desired,
      deletes: ["gone"],
      heldBack: null,
      kept: ["recent"],
    });
  });

  it("under --full with recent names that the PIM lists, still replaces", () => {
    const desired = [opt("a"), opt("recent")];
    const result = plan({ desired, lastWritten: state(opt("a")), full: true, recentlyAdded: recent("recent") });
    expect(result).toMatchObject({ action: "replace", reason: "full", kept: [] });
  });

  it("keeps recent names even with allowMassDelete", () => {
    const result = plan({
      desired: [],
      lastWritten: state(opt("recent"), opt("x")),
      allowMassDelete: true,
      recentlyAdded: recent("recent"),
    });
    expect(result.deletes).toEqual(["x"]);
    expect(result.kept).toEqual(["recent"]);
  });

  it("without state, replaces with the PIM's options plus recent additions the PIM does not list yet", () => {
    const recentlyAdded = new Map([
      ["b", { "en-US": "B" }],
      ["A", { "en-US": "dup of a" }],
    ]);
    const result = plan({ desired: [opt("a")], lastWritten: null, recentlyAdded });
    expect(result).toMatchObject({ action: "replace", reason: "no-state", kept: ["b"], deletes: [] });
    expect(result.upserts).toEqual([opt("a"), { name: "b", label: { "en-US": "B" } }]);
  });
});
