import { describe, expect, it } from "vitest";
import { DEFAULT_DELETION_GUARD } from "../../../src/reconcile/collection-plan.js";
import { checkDeletionGuard } from "../../../src/reconcile/deletion-guard.js";

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
});
