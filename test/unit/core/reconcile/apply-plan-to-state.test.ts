import { describe, expect, it } from "vitest";
import { nextLastWritten } from "../../../../src/core/reconcile/apply-plan-to-state.js";
import type { CollectionPlan } from "../../../../src/core/reconcile/collection-plan.js";
import { many, opt, plan, state } from "./helpers.js";

describe("nextLastWritten", () => {
  it("after a replace, holds exactly the written options, whatever was known before", () => {
    const before = state(opt("old"), opt("a", { "en-US": "stale" }));
    const replace: CollectionPlan = {
      collection: "c",
      action: "replace",
      reason: "full",
      upserts: [opt("a", { "en-US": "A" }), opt("b")],
      deletes: [],
      heldBack: null,
      kept: [],
    };
    expect(nextLastWritten(before, replace)).toEqual(state(opt("a", { "en-US": "A" }), opt("b")));
  });

  it("after a replace with no state before", () => {
    const desired = [opt("x"), opt("y")];
    expect(nextLastWritten(null, plan({ desired, lastWritten: null }))).toEqual(state(...desired));
  });

  it("after a replace of nothing, is empty (known and empty, not unknown)", () => {
    const next = nextLastWritten(null, plan({ desired: [], lastWritten: null }));
    expect(next).toBeInstanceOf(Map);
    expect(next.size).toBe(0);
  });

  it("after an update, applies upserts and deletes to what was known", () => {
    const before = state(opt("keep"), opt("relabel", { "en-US": "Old" }), opt("gone"));
    const update = plan({ desired: [opt("keep"), opt("relabel", { "en-US": "New" }), opt("new")], lastWritten: before });
    expect(update.action).toBe("update");
    expect(nextLastWritten(before, update)).toEqual(state(opt("keep"), opt("relabel", { "en-US": "New" }), opt("new")));
  });

  it("keeps held-back names with their old labels", () => {
    const before = state(...many(19));
    const held = plan({ desired: [...many(9), opt("fresh")], lastWritten: before });
    expect(held.heldBack?.names).toHaveLength(10);
    const next = nextLastWritten(before, held);
    expect(next).toEqual(state(...many(19), opt("fresh")));
  });

  it("keeps everything under a tripped --full (no deletes), with the desired labels", () => {
    const before = state(...many(19));
    const desired = many(9).map((o) => opt(o.name, { "en-US": `${o.name}!` }));
    const full = plan({ desired, lastWritten: before, full: true });
    expect(full.action).toBe("update");
    const next = nextLastWritten(before, full);
    expect(next.size).toBe(19);
    expect(next.get("o0")).toEqual({ "en-US": "o0!" });
    expect(next.get("o18")).toEqual({ "en-US": "o18" });
  });

  it("after action none, is a copy of what was known", () => {
    const before = state(opt("a"), opt("b"));
    const next = nextLastWritten(before, plan({ desired: [opt("a"), opt("b")], lastWritten: before }));
    expect(next).toEqual(before);
    expect(next).not.toBe(before);
  });

  it("does not change the state it was given", () => {
    const before = state(opt("a"), opt("b"));
    const copy = new Map(before);
    nextLastWritten(before, plan({ desired: [opt("c")], lastWritten: before, allowMassDelete: true }));
    expect(before).toEqual(copy);
  });
});

describe("nextLastWritten: renames", () => {
  it("records the PIM's spelling in place of every old one", () => {
    const before = state(opt("Teal", { "en-US": "old" }), opt("TEAL"), opt("red"));
    const after = nextLastWritten(before, plan({ desired: [opt("teal", { "en-US": "Teal" }), opt("red")], lastWritten: before }));
    expect(after).toEqual(state(opt("red"), opt("teal", { "en-US": "Teal" })));
  });
});
