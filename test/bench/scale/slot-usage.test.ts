import { describe, expect, it } from "vitest";
import { slotUsage } from "../../../bench/scale/slot-usage.js";

describe("slotUsage", () => {
  it("is null without runs or slots", () => {
    expect(slotUsage([], 2)).toBeNull();
    expect(slotUsage([{ start: 0, end: 10 }], 0)).toBeNull();
  });

  it("counts every slot busy all along as 1", () => {
    const usage = slotUsage(
      [
        { start: 0, end: 1000 },
        { start: 0, end: 1000 },
      ],
      2,
    );
    expect(usage).toEqual({ windowMs: 1000, jobsPerSecond: 2, slotUtilisation: 1, maxRunning: 2 });
  });

  it("counts one process running its jobs in turn as 1/W of W processes' slots", () => {
    const usage = slotUsage(
      [
        { start: 0, end: 500 },
        { start: 500, end: 1000 },
      ],
      2,
    );
    // A slot handed over at one millisecond is not two jobs at once.
    expect(usage?.maxRunning).toBe(1);
    expect(usage?.slotUtilisation).toBe(0.5);
  });
});
