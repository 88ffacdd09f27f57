import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeCollectionAdditions, type MergeRequest } from "../../../../src/features/add-options/merge-collection-additions.js";

const NO_PIM = new Map<string, string>();
const labelOf = (label: string | undefined): Record<string, string> => (label === undefined ? {} : { "en-US": label });
const req = (id: string, ...options: [string, string?][]): MergeRequest => ({
  id,
  options: options.map(([name, label]) => ({ name, label: labelOf(label) })),
});

describe("mergeCollectionAdditions", () => {
  it("adds everything to a collection with nothing known, one contribution per request, in queue order", () => {
    const merged = mergeCollectionAdditions("color", [], [req("1", ["teal", "Teal"]), req("2", ["navy"], ["olive"])], NO_PIM);
    expect(merged.contributions).toEqual([
      { request: "1", viaAdd: [{ name: "teal", label: { "en-US": "Teal" } }], viaUpsert: [] },
      {
        request: "2",
        viaAdd: [
          { name: "navy", label: {} },
          { name: "olive", label: {} },
        ],
        viaUpsert: [],
      },
    ]);
    expect(Object.fromEntries(merged.perRequest)).toEqual({
      "1": { added: ["teal"], skipped: [] },
      "2": { added: ["navy", "olive"], skipped: [] },
    });
    expect(merged.reliesOn.size).toBe(0);
  });

  it("skips what the collection is known to hold, case-insensitively, and leaves out requests that bring nothing", () => {
    const merged = mergeCollectionAdditions("color", ["red"], [req("1", ["Red"]), req("2", ["RED"], ["teal"])], NO_PIM);
    expect(merged.contributions).toEqual([{ request: "2", viaAdd: [{ name: "teal", label: {} }], viaUpsert: [] }]);
    expect(Object.fromEntries(merged.perRequest)).toEqual({
      "1": { added: [], skipped: ["Red"] },
      "2": { added: ["teal"], skipped: ["RED"] },
    });
    expect(merged.reliesOn.size).toBe(0);
  });

  it("lets the first request in queue order add an option asked for twice, with its label; the later one finds it present and relies on the first", () => {
    const merged = mergeCollectionAdditions(
      "color",
      [],
      [req("1", ["teal", "Teal (first)"]), req("2", ["Teal", "Teal (second)"], ["navy"])],
      NO_PIM,
    );
    expect(merged.contributions).toEqual([
      { request: "1", viaAdd: [{ name: "teal", label: { "en-US": "Teal (first)" } }], viaUpsert: [] },
      { request: "2", viaAdd: [{ name: "navy", label: {} }], viaUpsert: [] },
    ]);
    expect(merged.perRequest.get("2")).toEqual({ added: ["navy"], skipped: ["Teal"] });
    expect([...(merged.reliesOn.get("2") ?? [])]).toEqual(["1"]);
  });

  it("an option the collection holds that an earlier run of the same request was adding is that request's addition; nothing is written, others still find it present", () => {
    const earlier = new Map([["2", new Set(["teal"])]]);
    const merged = mergeCollectionAdditions(
      "color",
      ["teal", "red"],
      [req("1", ["teal"]), req("2", ["Teal"], ["red"]), req("3", ["teal"])],
      NO_PIM,
      earlier,
    );
    expect(merged.contributions).toEqual([]);
    expect(Object.fromEntries(merged.perRequest)).toEqual({
      "1": { added: [], skipped: ["teal"] },
      "2": { added: ["Teal"], skipped: ["red"] },
      "3": { added: [], skipped: ["teal"] },
    });
    expect(merged.reliesOn.size).toBe(0);
  });

  it("an earlier run's intent for an option the collection does not hold changes nothing: the option is written again", () => {
    const merged = mergeCollectionAdditions("color", [], [req("1", ["teal"])], NO_PIM, new Map([["1", new Set(["teal"])]]));
    expect(merged.contributions).toEqual([{ request: "1", viaAdd: [{ name: "teal", label: {} }], viaUpsert: [] }]);
    expect(Object.fromEntries(merged.perRequest)).toEqual({ "1": { added: ["teal"], skipped: [] } });
  });

  it("sends what the PIM has through update-options under the PIM's spelling, and the rest through add-options", () => {
    const pim = new Map([["teal", "teal"]]);
    const merged = mergeCollectionAdditions("color", [], [req("1", ["Teal", "Teal"], ["navy"]), req("2", ["TEAL"])], pim);
    expect(merged.contributions).toEqual([
      { request: "1", viaAdd: [{ name: "navy", label: {} }], viaUpsert: [{ name: "teal", label: { "en-US": "Teal" } }] },
    ]);
    expect(merged.perRequest.get("1")).toEqual({ added: ["teal", "navy"], skipped: [] });
    expect(merged.perRequest.get("2")).toEqual({ added: [], skipped: ["teal"] });
  });

  it("property: every missing code is written exactly once, by the first request asking for it, and every request accounts for each of its options", () => {
    const code = fc.constantFrom("a", "A", "b", "B", "c", "d", "e");
    const requests = fc.array(fc.uniqueArray(code, { selector: (name) => name.toLowerCase(), minLength: 1, maxLength: 4 }), {
      minLength: 1,
      maxLength: 6,
    });
    fc.assert(
      fc.property(requests, fc.subarray(["a", "b", "c"]), fc.subarray(["c", "d"]), (names, known, inPim) => {
        const batch = names.map((options, index) =>
          req(String(index), ...options.map((name): [string, string] => [name, `label ${index}`])),
        );
        const pimCodes = new Map(inPim.map((name) => [name, name] as const));
        const merged = mergeCollectionAdditions("x", known, batch, pimCodes);
        const written = merged.contributions.flatMap((c) =>
          [...c.viaAdd, ...c.viaUpsert].map((option) => ({ ...option, request: c.request })),
        );
        const keys = written.map((option) => option.name.toLowerCase());
        expect(new Set(keys).size).toBe(keys.length);
        const wanted = new Set(
          names
            .flat()
            .map((name) => name.toLowerCase())
            .filter((key) => !known.includes(key)),
        );
        expect(new Set(keys)).toEqual(wanted);
        for (const option of written) {
          const first = batch.find((r) => r.options.some((o) => o.name.toLowerCase() === option.name.toLowerCase()));
          expect(option.request).toBe(first?.id);
          expect(option.label).toEqual({ "en-US": `label ${option.request}` });
          expect(merged.contributions.find((c) => c.request === option.request)?.viaUpsert.some((o) => o.name === option.name)).toBe(
            pimCodes.has(option.name.toLowerCase()),
          );
        }
        for (const r of batch) {
          const mine = merged.perRequest.get(r.id);
          expect([...(mine?.added ?? []), ...(mine?.skipped ?? [])].map((name) => name.toLowerCase()).sort()).toEqual(
            r.options.map((o) => o.name.toLowerCase()).sort(),
          );
        }
      }),
    );
  });
});
