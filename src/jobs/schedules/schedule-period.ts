import { createRequire } from "node:module";
import type * as CronParser from "cron-parser";
import { oncePerKey } from "../../core/memo/once-per-key.js";

const require = createRequire(import.meta.url);
const cronParser = (): typeof CronParser => require("cron-parser") as typeof CronParser;

/** A fixed day to measure from: the period must not change with the day a worker starts. */
const PERIOD_REFERENCE = Date.UTC(2024, 0, 1);
/** A year of runs shows a weekly or monthly cron's longest gap; a year and a day covers a leap year. */
const PERIOD_SPAN_MS = 367 * 24 * 3600 * 1000;
/**
 * Bounds the work (cron-parser takes about 0.1 ms a run): every 15 minutes is seen for 41 days,
 * every minute from 8 to 18 on weekdays for over a week, its weekend included.
 */
const PERIOD_SAMPLES = 4_000;

/**
 * The longest gap between two runs of a cron, in ms: how long a project may go without a
 * scheduled sync when all is well. The longest rather than the typical one, so that an alert
 * on "two periods without a success" does not fire over every night of `0 9,17 * * *` or every
 * weekend of `0 9 * * 1-5`. Null when the cron runs fewer than twice in the span looked at.
 */
export function schedulePeriodMs(schedule: { readonly pattern: string; readonly tz?: string | undefined }): number | null {
  return measuredOnce(schedule.pattern, schedule.tz);
}

/** Projects mostly share a few crons: each is measured once per process. */
const measuredOnce = oncePerKey(
  (pattern: string, tz: string | undefined) => `${pattern}\u0000${tz ?? ""}`,
  (pattern: string, tz: string | undefined) => measure({ pattern, tz }),
);

function measure(schedule: { readonly pattern: string; readonly tz?: string | undefined }): number | null {
  const interval = cronParser().CronExpressionParser.parse(schedule.pattern, {
    currentDate: new Date(PERIOD_REFERENCE),
    ...(schedule.tz !== undefined ? { tz: schedule.tz } : {}),
  });
  let previous: number | null = null;
  let longest: number | null = null;
  for (let sample = 0; sample < PERIOD_SAMPLES; sample += 1) {
    let next: number;
    // A cron with no further time (a date range that has passed) ends the list.
    try {
      next = interval.next().getTime();
    } catch {
      break;
    }
    if (previous !== null) longest = Math.max(longest ?? 0, next - previous);
    if (next - PERIOD_REFERENCE > PERIOD_SPAN_MS) break;
    previous = next;
  }
  return longest;
}
