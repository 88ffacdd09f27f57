import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { RepeatOptions, RepeatStrategy } from "bullmq";
import type * as CronParser from "cron-parser";
import { oncePerKey } from "../../core/memo/once-per-key.js";

const require = createRequire(import.meta.url);
const cronParser = (): typeof CronParser => require("cron-parser") as typeof CronParser;

/** A fixed day to measure a cron's gaps from: the offset must not change with the day it is computed on. */
const GAP_REFERENCE = Date.UTC(2024, 0, 1);
/** Occurrences looked at to find a cron's shortest gap (an irregular cron such as `0 9,17 * * *`). */
const GAP_SAMPLES = 16;

function occurrencesAfter(millis: number, pattern: string, tz: string | undefined, count: number): number[] {
  const interval = cronParser().CronExpressionParser.parse(pattern, { currentDate: new Date(millis), ...(tz !== undefined ? { tz } : {}) });
  const times: number[] = [];
  // A cron with no further time (a date range that has passed) ends the list, as BullMQ's own strategy does.
  try {
    while (times.length < count) times.push(interval.next().getTime());
  } catch {
    return times;
  }
  return times;
}

/**
 * The shortest gap between the cron's runs from GAP_REFERENCE; null when it runs fewer than twice.
 * Worked out once per cron and zone in a process: the gap is the same for every project on it,
 * and the 16 occurrences cost about 2 ms (cron-parser), which a fleet of 1,000 projects on one
 * cron would otherwise pay a thousand times as its worker starts.
 */
const shortestGapMs = oncePerKey(
  (pattern: string, tz: string | undefined) => `${pattern}\u0000${tz ?? ""}`,
  (pattern: string, tz: string | undefined): number | null => {
    const times = occurrencesAfter(GAP_REFERENCE, pattern, tz, GAP_SAMPLES);
    let shortest: number | null = null;
    for (let index = 1; index < times.length; index += 1)
      shortest = Math.min(shortest ?? Number.POSITIVE_INFINITY, (times[index] ?? 0) - (times[index - 1] ?? 0));
    return shortest;
  },
);

/**
 * A project's scheduled syncs start this long after the cron's time: a stable point within
 * `jitterMs`, from a digest of the project id (the same in every process and after every
 * restart), never as long as the cron's shortest gap (a run must not slide into the next one's
 * time). So 50 projects on `*\/15 * * * *` start spread over the window, not in one second.
 */
export function scheduleOffsetMs(
  project: number,
  schedule: { readonly pattern: string; readonly tz?: string | undefined },
  jitterMs: number,
): number {
  if (jitterMs <= 0) return 0;
  const window = Math.min(jitterMs, shortestGapMs(schedule.pattern, schedule.tz) ?? jitterMs);
  const fraction = createHash("sha256").update(`schedule-offset\u0000${project}`).digest().readUInt32BE(0) / 2 ** 32;
  return Math.floor(fraction * window);
}

/**
 * The queue's and the worker's way of finding a scheduled job's next time (BullMQ applies its
 * own `offset` to `every` schedules only): the cron's next time after `millis - offset`, plus
 * the offset. BullMQ asks with the previous run's time, so the next run is the next cron time.
 */
export function spreadRepeatStrategy(project: number, jitterMs: number): RepeatStrategy {
  const offsets = new Map<string, number>();
  return (millis: number, opts: RepeatOptions): number | undefined => {
    const { pattern } = opts;
    if (pattern === undefined) return undefined;
    const key = `${pattern}\u0000${opts.tz ?? ""}`;
    let offset = offsets.get(key);
    if (offset === undefined) {
      offset = scheduleOffsetMs(project, { pattern, tz: opts.tz }, jitterMs);
      offsets.set(key, offset);
    }
    const [next] = occurrencesAfter(millis - offset, pattern, opts.tz, 1);
    return next === undefined ? undefined : next + offset;
  };
}
