import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_DELETION_GUARD } from "../../../../src/core/reconcile/collection-plan.js";
import { checkDeletionGuard } from "../../../../src/core/reconcile/deletion-guard.js";

const guard = { maxFraction: 0.5, minCount: 10 };

function check(deletes: number, lastWrittenCount: number, desiredCount: number, g = guard): string | null {
  return checkDeletionGuard({ deletes, lastWrittenCount, desiredCount, guard: g });
}

describe("checkDeletionGuard", () => {
  it("defaults to more than half and at least 10", () => {
    expect(DEFAULT_DELETION_GUARD).toEqual({ maxFraction: 0.5, minCount: 10 });
  });

  it("lets nothing-to-delete through, even when the PIM returned nothing", () => {
    expect(check(0, 0, 0)).toBeNull();
    expect(check(0, 100, 100)).toBeNull();
  });

  it.each([
    // deletes, lastWritten, desired, held back?
    [5, 10, 5, false], // exactly half: not more than half
    [9, 10, 1, false], // more than half but fewer than min_count
    [10, 20, 10, false], // exactly half of 20
    [10, 19, 9, true], // more than half and at least 10
    [11, 20, 9, true],
    [10, 10, 1, true], // all but the new ones
    [100, 1000, 900, false],
    [501, 1000, 499, true],
    [500, 1000, 500, false],
  ])("%i deletions of %i (desired %i): held back %s", (deletes, lastWritten, desired, held) => {
    const verdict = check(deletes, lastWritten, desired);
    expect(verdict !== null).toBe(held);
  });

  it("explains a mass deletion with the counts and the share", () => {
    expect(check(10, 19, 9)).toBe("would delete 10 of 19 options (more than 50%)");
  });

  it("rounds the share in the message", () => {
    expect(check(5, 6, 1, { maxFraction: 1 / 3, minCount: 1 })).toBe("would delete 5 of 6 options (more than 33%)");
  });

  it("holds back any deletion when the PIM returned no option, whatever the counts", () => {
    expect(check(1, 1, 0)).toBe("the PIM returned no option where 1 were last written");
    expect(check(3, 3, 0, { maxFraction: 1, minCount: 1000 })).toBe("the PIM returned no option where 3 were last written");
  });

  it("follows a custom guard", () => {
    expect(check(1, 100, 99, { maxFraction: 0, minCount: 1 })).not.toBeNull();
    expect(check(99, 100, 1, { maxFraction: 1, minCount: 1 })).toBeNull();
    expect(check(3, 4, 1, { maxFraction: 0.5, minCount: 3 })).not.toBeNull();
    expect(check(2, 4, 2, { maxFraction: 0.25, minCount: 3 })).toBeNull();
  });

  describe("counted across runs (recentDeletes: earlier runs' deletions within the window)", () => {
    const windowed = { maxFraction: 0.5, minCount: 10, windowMs: 86_400_000 };
    const across = (deletes: number, lastWrittenCount: number, recentDeletes: number): string | null =>
      checkDeletionGuard({ deletes, lastWrittenCount, desiredCount: lastWrittenCount - deletes, guard: windowed, recentDeletes });

    it("holds a run whose deletions, with the earlier ones, are more than the share of the collection as it was before them", () => {
      // 498 of 1,000 already gone: 3 more make 501 of 1,000.
      expect(across(3, 502, 498)).toBe("would delete 3 of 502 options, 501 of 1000 with the 498 deleted in the last 24 h (more than 50%)");
      expect(across(2, 502, 498)).toBeNull();
    });

    it("needs the minimum count on the total, not on the run", () => {
      expect(across(1, 10, 8)).toBeNull(); // 9 of 18: fewer than 10
      expect(across(2, 10, 9)).not.toBeNull(); // 11 of 19
    });

    it("names the window as it is configured", () => {
      const short = { ...windowed, windowMs: 90 * 60_000 };
      expect(checkDeletionGuard({ deletes: 6, lastWrittenCount: 6, desiredCount: 1, guard: short, recentDeletes: 6 })).toContain(
        "in the last 90 min",
      );
    });

    it("a removal split into runs of any sizes deletes no more than one run may: the guard's share of the collection", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 400 }),
          fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 60 }),
          fc.double({ min: 0.01, max: 0.99, noNaN: true }),
          fc.integer({ min: 1, max: 20 }),
          (size, runs, maxFraction, minCount) => {
            const g = { maxFraction, minCount, windowMs: 1 };
            let left = size;
            let deleted = 0;
            for (const wanted of runs) {
              const deletes = Math.min(wanted, left - 1);
              if (deletes <= 0) break;
              const verdict = checkDeletionGuard({
                deletes,
                lastWrittenCount: left,
                desiredCount: left - deletes,
                guard: g,
                recentDeletes: deleted,
              });
              if (verdict === null) {
                deleted += deletes;
                left -= deletes;
              }
            }
            // Whatever passed, passed as one run would have: within the share, or fewer than the minimum.
            expect(deleted <= maxFraction * size || deleted < minCount).toBe(true);
          },
        ),
      );
    });
  });
});
