import type { RepeatOptions } from "bullmq";
import { describe, expect, it } from "vitest";
import { scheduleOffsetMs, spreadRepeatStrategy } from "../../../../src/jobs/queues/schedule-offset.js";

const QUARTER = { pattern: "*/15 * * * *", tz: "UTC" } satisfies RepeatOptions;
const CRON_TIME = Date.UTC(2026, 4, 4, 10, 15);

describe("spread schedules: a stable per-project offset within the jitter window", () => {
  it("50 projects on */15 start at their own second within the minute after the cron's time, every time", () => {
    const starts = Array.from({ length: 50 }, (_, index) => {
      const next = spreadRepeatStrategy(index + 1, 60_000)(CRON_TIME - 1, QUARTER);
      if (typeof next !== "number") throw new Error("no next time");
      return next;
    });
    for (const start of starts) {
      expect(start).toBeGreaterThanOrEqual(CRON_TIME);
      expect(start).toBeLessThan(CRON_TIME + 60_000);
    }
    // 50 offsets in a 60 s window: most land in a second of their own, none piles up.
    const seconds = new Map<number, number>();
    for (const start of starts)
      seconds.set(Math.floor((start - CRON_TIME) / 1000), (seconds.get(Math.floor((start - CRON_TIME) / 1000)) ?? 0) + 1);
    expect(seconds.size).toBeGreaterThanOrEqual(25);
    expect(Math.max(...seconds.values())).toBeLessThanOrEqual(5);
  });

  it("the offset is the same on every call and for the following runs (asked with the previous run's time)", () => {
    const strategy = spreadRepeatStrategy(67, 60_000);
    const offset = scheduleOffsetMs(67, QUARTER, 60_000);
    const first = strategy(CRON_TIME - 1, QUARTER);
    expect(first).toBe(CRON_TIME + offset);
    expect(strategy(CRON_TIME + offset, QUARTER)).toBe(CRON_TIME + 15 * 60_000 + offset);
    expect(spreadRepeatStrategy(67, 60_000)(CRON_TIME - 1, QUARTER)).toBe(first);
  });

  it("never as long as the cron's shortest gap, and none without a jitter window", () => {
    for (let project = 1; project <= 30; project += 1)
      expect(scheduleOffsetMs(project, { pattern: "*/1 * * * * *" }, 60_000)).toBeLessThan(1000);
    expect(scheduleOffsetMs(67, QUARTER, 0)).toBe(0);
    expect(spreadRepeatStrategy(67, 0)(CRON_TIME - 1, QUARTER)).toBe(CRON_TIME);
  });
});
