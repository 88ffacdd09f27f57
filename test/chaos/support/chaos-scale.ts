/**
 * How big the chaos suite runs. `npm test` runs it reduced (so CI keeps it, in about a minute);
 * `npm run test:chaos` sets PIM_SYNC_CHAOS_SCALE=full. One table, so both sizes are easy to see.
 */
export type ChaosScale = "reduced" | "full";

export const CHAOS_SCALE: ChaosScale = process.env.PIM_SYNC_CHAOS_SCALE === "full" ? "full" : "reduced";

interface ChaosSizes {
  /** SIGKILLs of a worker process, one per sync, at seeded random points. */
  readonly sigkillPoints: number;
  /** fast-check runs of the add-options / sync / PIM-change interleavings. */
  readonly propertyRuns: number;
  /** Longest command sequence of one property run. */
  readonly propertyMaxCommands: number;
  /** Fuzz cases sent to the trigger endpoint. */
  readonly triggerFuzzCases: number;
  /** Fuzz cases of job data run through a real worker. */
  readonly jobDataFuzzCases: number;
  /** Config files through the settings loader. */
  readonly configFuzzCases: number;
  /** Config files through the CLI (a process each). */
  readonly cliConfigFuzzCases: number;
  /** PIM changes announced by events in each scenario of the event path. */
  readonly eventChanges: number;
  /** fast-check runs of the held-plan, approval and history model (held-invariants.test.ts). */
  readonly heldModelRuns: number;
  /** Longest step sequence of one run of that model. */
  readonly heldModelMaxSteps: number;
}

const SIZES: Readonly<Record<ChaosScale, ChaosSizes>> = {
  reduced: {
    sigkillPoints: 3,
    propertyRuns: 6,
    propertyMaxCommands: 8,
    triggerFuzzCases: 150,
    jobDataFuzzCases: 25,
    configFuzzCases: 300,
    cliConfigFuzzCases: 4,
    eventChanges: 30,
    heldModelRuns: 4,
    heldModelMaxSteps: 12,
  },
  full: {
    sigkillPoints: 20,
    propertyRuns: 60,
    propertyMaxCommands: 16,
    triggerFuzzCases: 3000,
    jobDataFuzzCases: 300,
    configFuzzCases: 5000,
    cliConfigFuzzCases: 40,
    eventChanges: 300,
    heldModelRuns: 60,
    heldModelMaxSteps: 30,
  },
};

export const CHAOS_SIZES: ChaosSizes = SIZES[CHAOS_SCALE];

/**
 * The seed of the run: PIM_SYNC_CHAOS_SEED to replay one, else a fresh one. Printed by every
 * test that uses it, so a failure can be replayed exactly.
 */
export function chaosSeed(): number {
  const fixed = process.env.PIM_SYNC_CHAOS_SEED;
  if (fixed === undefined || fixed === "") return Math.floor(Math.random() * 2 ** 31);
  // A mistyped seed would silently run another case than the one to replay.
  if (!/^-?\d+$/.test(fixed)) throw new Error(`PIM_SYNC_CHAOS_SEED must be an integer (the seed a run printed), got '${fixed}'`);
  return Number(fixed);
}

/** A small seeded generator (mulberry32) for choices outside fast-check: kill points and such. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
