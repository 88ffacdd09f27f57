import { describe, expect, it } from "vitest";
import { longSourceWeight } from "../../../../src/features/sync/long-source-weight.js";

describe("longSourceWeight", () => {
  it("counts a short source's options, and a long one for just over half the cap", () => {
    expect(longSourceWeight(1_200, 60_000)).toBe(1_200);
    expect(longSourceWeight(30_000, 60_000)).toBe(30_000);
    expect(longSourceWeight(30_001, 60_000)).toBe(30_001);
    expect(longSourceWeight(47_000, 60_000)).toBe(30_001);
  });

  it("never lets two long sources fit in the cap together, nor a long one wait for more than half of it", () => {
    const cap = 60_000;
    const long = longSourceWeight(45_000, cap);
    expect(long + long).toBeGreaterThan(cap);
    expect(cap - long).toBeGreaterThanOrEqual(cap / 2 - 1);
  });
});
