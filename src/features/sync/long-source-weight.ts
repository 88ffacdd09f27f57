/**
 * A source's weight in the write stage: its options, or just over half the cap for a long one.
 * A long source waits for half the stage to drain, not all of it (with a plain cap a long source
 * waited for the stage to empty, and every reader behind it stood still), and two long sources
 * are never in the stage together (when two were, beside the largest being read, the
 * option-heavy re-sync's peak RSS reached 289–312 MB).
 */
export function longSourceWeight(options: number, cap: number): number {
  const half = Math.floor(cap / 2);
  return options > half ? half + 1 : options;
}
