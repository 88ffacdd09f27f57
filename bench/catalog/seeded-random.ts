/**
 * A small seeded PRNG (mulberry32) and the draws the catalogue generator needs. Math.random is
 * never used: the same seed must give the same catalogue on any machine and any Node version, so
 * that anyone can reproduce a benchmark's input byte for byte.
 */
export interface SeededRandom {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (both included). */
  int(min: number, max: number): number;
  /** Log-uniform integer in [min, max]: most draws small, a few large, like real option lists. */
  logInt(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A new array in a seeded random order (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
}

export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  // mulberry32: 32-bit state, good enough spread for sampling, and trivially portable.
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => {
    if (max < min) throw new RangeError(`empty range [${min}, ${max}]`);
    return min + Math.floor(next() * (max - min + 1));
  };
  return {
    next,
    int,
    logInt(min, max) {
      if (min < 1 || max < min) throw new RangeError(`log range needs 1 <= min <= max, got [${min}, ${max}]`);
      const value = Math.exp(Math.log(min) + next() * (Math.log(max) - Math.log(min)));
      return Math.min(max, Math.max(min, Math.round(value)));
    },
    chance: (probability) => next() < probability,
    pick<T>(items: readonly T[]): T {
      const item = items[int(0, items.length - 1)];
      if (item === undefined) throw new RangeError("cannot pick from an empty list");
      return item;
    },
    shuffle<T>(items: readonly T[]): T[] {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i -= 1) {
        const j = int(0, i);
        const a = out[i] as T;
        out[i] = out[j] as T;
        out[j] = a;
      }
      return out;
    },
  };
}
