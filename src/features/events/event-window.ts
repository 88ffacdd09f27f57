/**
 * How long a project's events are merged before its targeted sync starts: until no event has
 * arrived for `quietMs` (the burst is over), at most `maxMs` after the first.
 */
export interface EventWindow {
  readonly quietMs: number;
  readonly maxMs: number;
}

/**
 * How a targeted sync under this window is queued (the `sync.events` job's enqueue request): it
 * starts `quietMs` after the last request, each new one moving the start, never later than
 * `maxMs` after the first.
 */
export function eventWindowDelay(window: EventWindow): { readonly delayMs: number; readonly quietUpToMs: number } {
  return { delayMs: Math.min(window.quietMs, window.maxMs), quietUpToMs: window.maxMs };
}
