/**
 * How long a project's events are merged before its targeted sync starts: until no event has
 * arrived for `quietMs` (the burst is over), at most `maxMs` after the first.
 */
export interface EventWindow {
  readonly quietMs: number;
  readonly maxMs: number;
}
