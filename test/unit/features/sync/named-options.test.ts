import { describe, expect, it } from "vitest";
import type { ServiceLabels } from "../../../../src/core/domain/option-collection.js";
import { DEFAULT_DELETION_GUARD } from "../../../../src/core/reconcile/collection-plan.js";
import { planCollection } from "../../../../src/core/reconcile/plan-collection.js";
import { desiredWithNamedOptions, type NamedOptions } from "../../../../src/features/sync/named-options.js";

const state = (...names: string[]): Map<string, ServiceLabels> => new Map(names.map((name) => [name, { "en-US": name.toUpperCase() }]));

/** The plan of one collection for options read alone, as a targeted sync makes it. */
function planNamed(
  lastWritten: Map<string, ServiceLabels>,
  named: NamedOptions,
  extra: { recentlyAdded?: Map<string, ServiceLabels> } = {},
) {
  return planCollection({
    collection: "color",
    desired: desiredWithNamedOptions(lastWritten, named),
    lastWritten,
    full: false,
    allowMassDelete: false,
    guard: DEFAULT_DELETION_GUARD,
    ...extra,
  });
}

describe("planning options read alone", () => {
  it("a new option is one upsert, nothing else changes", () => {
    const plan = planNamed(state("red", "blue"), { present: [{ name: "teal", label: { "en-US": "Teal" } }], gone: [] });
    expect(plan).toMatchObject({ action: "update", upserts: [{ name: "teal", label: { "en-US": "Teal" } }], deletes: [], heldBack: null });
  });

  it("a relabelled option is an upsert; an unchanged one is nothing", () => {
    expect(planNamed(state("red", "blue"), { present: [{ name: "red", label: { "en-US": "Crimson" } }], gone: [] })).toMatchObject({
      action: "update",
      upserts: [{ name: "red" }],
      deletes: [],
    });
    expect(planNamed(state("red", "blue"), { present: [{ name: "red", label: { "en-US": "RED" } }], gone: [] }).action).toBe("none");
  });

  it("a 404 deletes that option only, whatever its spelling in the state; a 404 for an unknown option is nothing", () => {
    expect(planNamed(state("Red", "blue", "green"), { present: [], gone: ["red"] })).toMatchObject({
      action: "update",
      upserts: [],
      deletes: ["Red"],
    });
    expect(planNamed(state("red", "blue"), { present: [], gone: ["teal"] }).action).toBe("none");
  });

  it("the PIM's spelling of a named option renames it, not deletes it", () => {
    const plan = planNamed(state("Teal", "blue"), { present: [{ name: "teal", label: { "en-US": "TEAL" } }], gone: [] });
    expect(plan.deletes).toEqual([]);
    expect(plan.renames).toEqual([{ from: ["Teal"], option: { name: "teal", label: { "en-US": "TEAL" } } }]);
  });

  it("the deletion guard counts option deletions of a collection as a full list's would", () => {
    const lastWritten = state(...Array.from({ length: 20 }, (_, index) => `o${index}`));
    const gone = Array.from({ length: 11 }, (_, index) => `o${index}`);
    const plan = planNamed(lastWritten, { present: [], gone });
    expect(plan.deletes).toEqual([]);
    expect(plan.heldBack?.names).toHaveLength(11);
    // The same PIM read whole (nine options left) plans the same.
    const whole = planCollection({
      collection: "color",
      desired: [...lastWritten].slice(11).map(([name, label]) => ({ name, label })),
      lastWritten,
      full: false,
      allowMassDelete: false,
      guard: DEFAULT_DELETION_GUARD,
    });
    expect(plan).toEqual(whole);
  });

  it("an option added through add-options moments ago is not deleted on a 404", () => {
    const plan = planNamed(
      state("red", "fresh"),
      { present: [], gone: ["fresh"] },
      { recentlyAdded: new Map([["fresh", { "en-US": "Fresh" }]]) },
    );
    expect(plan).toMatchObject({ action: "none", deletes: [], kept: ["fresh"] });
  });

  it("against a part of the state (the named entries and the state's size), the plan is the whole state's", () => {
    const lastWritten = state(...Array.from({ length: 1_200 }, (_, index) => `o${index}`));
    const gone = Array.from({ length: 11 }, (_, index) => `o${index}`);
    const named: NamedOptions = { present: [{ name: "O20", label: { "en-US": "O20" } }], gone };
    const part = new Map([...lastWritten].filter(([name]) => [...gone, "o20"].includes(name)));
    const partial = planCollection({
      collection: "color",
      desired: desiredWithNamedOptions(part, named),
      lastWritten: part,
      unlisted: lastWritten.size - part.size,
      full: false,
      allowMassDelete: false,
      guard: DEFAULT_DELETION_GUARD,
    });
    expect(partial).toEqual(planNamed(lastWritten, named));
    expect(partial).toMatchObject({ action: "update", deletes: gone, heldBack: null, renames: [{ from: ["o20"] }] });
    // Of 20 options, the same 11 deletions are held, as with the whole state.
    const small = state(...Array.from({ length: 20 }, (_, index) => `o${index}`));
    const smallPart = new Map([...small].filter(([name]) => gone.includes(name)));
    const held = planCollection({
      collection: "color",
      desired: desiredWithNamedOptions(smallPart, { present: [], gone }),
      lastWritten: smallPart,
      unlisted: 9,
      full: false,
      allowMassDelete: false,
      guard: DEFAULT_DELETION_GUARD,
    });
    expect(held.heldBack?.names).toHaveLength(11);
    expect(() =>
      planCollection({
        collection: "color",
        desired: [],
        lastWritten: smallPart,
        unlisted: 9,
        full: true,
        allowMassDelete: false,
        guard: DEFAULT_DELETION_GUARD,
      }),
    ).toThrow(/partial state/);
  });
});
