/**
 * The delay a waiting job gets when another request joins it and its start should follow the
 * last request by `quietMs`: `quietMs` from now, but no later than `maxMs` after the job was
 * queued (and never negative: past that, at once). Pure.
 */
export function quietDelayMs(args: {
  readonly now: number;
  readonly queuedAt: number;
  readonly quietMs: number;
  readonly maxMs: number;
}): number {
  return Math.max(0, Math.min(args.quietMs, args.queuedAt + args.maxMs - args.now));
}
