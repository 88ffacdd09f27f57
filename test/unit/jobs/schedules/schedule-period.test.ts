import { describe, expect, it } from "vitest";
import { schedulePeriodMs } from "../../../../src/jobs/schedules/schedule-period.js";

const HOUR = 3600 * 1000;

describe("schedulePeriodMs: the longest gap between a cron's runs", () => {
  it("is the cron's step for a regular cron", () => {
    expect(schedulePeriodMs({ pattern: "0 3 * * *" })).toBe(24 * HOUR);
    expect(schedulePeriodMs({ pattern: "*/15 * * * *" })).toBe(HOUR / 4);
  });

  it("is the night of a cron that runs twice a day, and the weekend of a weekday cron", () => {
    expect(schedulePeriodMs({ pattern: "0 9,17 * * *" })).toBe(16 * HOUR);
    expect(schedulePeriodMs({ pattern: "0 9 * * 1-5" })).toBe(72 * HOUR);
  });

  it("sees the weekend of a weekday cron that runs every minute", () => {
    expect(schedulePeriodMs({ pattern: "* 8-18 * * 1-5" })).toBe((72 - 11) * HOUR + 60_000);
  });

  it("is the longest month of a monthly cron", () => {
    expect(schedulePeriodMs({ pattern: "0 0 1 * *" })).toBe(31 * 24 * HOUR);
  });

  it("follows the cron's time zone across a daylight-saving change", () => {
    // 02:30 does not exist in Berlin on the last Sunday of March: that day's run moves, a gap grows past a day.
    expect(schedulePeriodMs({ pattern: "30 2 * * *", tz: "Europe/Berlin" })).toBeGreaterThanOrEqual(24 * HOUR);
  });
});
