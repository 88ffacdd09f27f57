import { describe, expect, it } from "vitest";
import { percentile, requestLatencies } from "../../../bench/scenarios/latency-percentiles.js";

describe("percentile", () => {
  it("takes the nearest rank, whatever the order of the values", () => {
    const values = [50, 10, 40, 20, 30, 60, 70, 80, 90, 100];
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(100);
    expect(percentile(values, 90)).toBe(90);
    expect(percentile([7], 95)).toBe(7);
  });
  it("is null for no values and refuses a percentile outside (0, 100]", () => {
    expect(percentile([], 95)).toBeNull();
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe("requestLatencies", () => {
  it("is enqueue to completion per job, and refuses a job that has not finished", () => {
    expect(
      requestLatencies([
        { timestamp: 1000, finishedOn: 1800 },
        { timestamp: 1050, finishedOn: 1300 },
      ]),
    ).toEqual([800, 250]);
    expect(() => requestLatencies([{ id: "7", timestamp: 1000 }])).toThrow(/job 7 has not finished/);
  });
});
