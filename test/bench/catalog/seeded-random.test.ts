import { describe, expect, it } from "vitest";
import { createSeededRandom } from "../../../bench/catalog/seeded-random.js";

const draws = (seed: number, n = 20): number[] => {
  const random = createSeededRandom(seed);
  return Array.from({ length: n }, () => random.next());
};

describe("createSeededRandom", () => {
  it("repeats its sequence for the same seed and changes it for another", () => {
    expect(draws(42)).toEqual(draws(42));
    expect(draws(42)).not.toEqual(draws(43));
  });

  it("stays in [0, 1)", () => {
    for (const value of draws(7, 5_000)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });

  it("draws integers inside their bounds, both ends reachable", () => {
    const random = createSeededRandom(1);
    const seen = new Set<number>();
    for (let i = 0; i < 2_000; i += 1) seen.add(random.int(3, 7));
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
    for (let i = 0; i < 2_000; i += 1) {
      const value = random.logInt(20_000, 50_000);
      expect(value).toBeGreaterThanOrEqual(20_000);
      expect(value).toBeLessThanOrEqual(50_000);
    }
  });

  it("log-uniform draws are mostly small", () => {
    const random = createSeededRandom(5);
    const values = Array.from({ length: 4_000 }, () => random.logInt(1, 10_000));
    const belowHundred = values.filter((value) => value < 100).length / values.length;
    // log-uniform over four decades: about half the mass below 100.
    expect(belowHundred).toBeGreaterThan(0.4);
    expect(belowHundred).toBeLessThan(0.6);
  });

  it("shuffles into a permutation without touching the input", () => {
    const input = Array.from({ length: 50 }, (_, i) => i);
    const shuffled = createSeededRandom(9).shuffle(input);
    expect(shuffled).not.toEqual(input);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(input);
    expect(input[0]).toBe(0);
  });
});
