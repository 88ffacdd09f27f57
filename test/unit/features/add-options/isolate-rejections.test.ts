import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isolateRejections } from "../../../../src/features/add-options/isolate-rejections.js";

class Refused extends Error {}
const refusal = (error: unknown): string | null => (error instanceof Refused ? error.message : null);

/** A write that refuses any group holding a culprit, naming the first one, and records what it accepted. */
function scriptedWrite(culprits: ReadonlySet<number>) {
  const calls: number[][] = [];
  const written: number[] = [];
  return {
    calls,
    written,
    async write(group: readonly number[]): Promise<void> {
      calls.push([...group]);
      const culprit = group.find((item) => culprits.has(item));
      if (culprit !== undefined) throw new Refused(`bad ${culprit}`);
      written.push(...group);
    },
  };
}

describe("isolateRejections", () => {
  it("writes everything in one call when nothing is refused", async () => {
    const w = scriptedWrite(new Set());
    const result = await isolateRejections([1, 2, 3], (g) => w.write(g), refusal);
    expect(result).toEqual({ accepted: [[1, 2, 3]], rejected: [] });
    expect(w.calls).toEqual([[1, 2, 3]]);
  });

  it("halves a refused group down to the culprit, which alone is refused with its reason", async () => {
    const w = scriptedWrite(new Set([6]));
    const result = await isolateRejections([1, 2, 3, 4, 5, 6, 7, 8], (g) => w.write(g), refusal);
    expect(result.rejected).toEqual([{ item: 6, reason: "bad 6" }]);
    expect(w.written.sort()).toEqual([1, 2, 3, 4, 5, 7, 8]);
    expect(w.calls).toEqual([[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4], [5, 6, 7, 8], [5, 6], [5], [6], [7, 8]]);
  });

  it("throws any failure that is not a refusal of the content, without splitting", async () => {
    const calls: number[][] = [];
    const failure = new Error("503");
    await expect(
      isolateRejections(
        [1, 2],
        async (g) => {
          calls.push([...g]);
          throw failure;
        },
        refusal,
      ),
    ).rejects.toBe(failure);
    expect(calls).toEqual([[1, 2]]);
  });

  it("property: exactly the culprits are refused, everything else is written once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.uniqueArray(fc.nat(39)), async (size, picks) => {
        const items = Array.from({ length: size }, (_, i) => i);
        const culprits = new Set(picks.filter((p) => p < size));
        const w = scriptedWrite(culprits);
        const result = await isolateRejections(items, (g) => w.write(g), refusal);
        expect(result.rejected.map((r) => r.item).sort((a, b) => a - b)).toEqual([...culprits].sort((a, b) => a - b));
        expect([...w.written].sort((a, b) => a - b)).toEqual(items.filter((i) => !culprits.has(i)));
        expect(result.accepted.flat().sort((a, b) => a - b)).toEqual(items.filter((i) => !culprits.has(i)));
      }),
    );
  });
});
