import { describe, expect, it } from "vitest";
import {
  jobsPerSecond,
  median,
  medianPairedRatio,
  streamIdMs,
  summarizeQueueRun,
  type QueueStreamEvent,
} from "../../../bench/worker/queue-run-summary.js";

describe("streamIdMs", () => {
  it("reads the milliseconds of a stream id", () => {
    expect(streamIdMs("1764000000123-7")).toBe(1764000000123);
    expect(streamIdMs("0-0")).toBe(0);
  });

  it("refuses what is not a stream id", () => {
    expect(() => streamIdMs("abc-1")).toThrow(/stream id/);
    expect(() => streamIdMs("")).toThrow(/stream id/);
  });
});

describe("summarizeQueueRun", () => {
  const event = (ms: number, seq: number, name: string, jobId: string, prev?: string): QueueStreamEvent => ({
    id: `${ms}-${seq}`,
    event: name,
    jobId,
    prev,
  });

  it("times a run from its first add and first start to its last finish, counting jobs once", () => {
    const summary = summarizeQueueRun([
      event(1000, 0, "added", "1"),
      event(1000, 1, "waiting", "1"),
      event(1001, 0, "added", "2"),
      event(1002, 0, "active", "1", "waiting"),
      event(1010, 0, "completed", "1", "active"),
      event(1010, 1, "active", "2", "waiting"),
      // A retry: the job failed an attempt and went back to waiting, then to delayed.
      event(1011, 0, "waiting", "2", "active"),
      event(1012, 0, "delayed", "2"),
      event(1020, 0, "active", "2", "waiting"),
      event(1030, 0, "completed", "2", "active"),
      event(1031, 0, "drained", ""),
    ]);
    expect(summary).toEqual({
      added: 2,
      completed: 2,
      failed: 0,
      requeued: 2,
      firstAddedMs: 1000,
      firstActiveMs: 1002,
      lastFinishedMs: 1030,
    });
  });

  it("counts final failures as finished, and an empty stream as nothing", () => {
    const summary = summarizeQueueRun([event(5, 0, "added", "9"), event(6, 0, "active", "9"), event(9, 0, "failed", "9", "active")]);
    expect(summary).toMatchObject({ completed: 0, failed: 1, lastFinishedMs: 9 });
    expect(summarizeQueueRun([])).toEqual({
      added: 0,
      completed: 0,
      failed: 0,
      requeued: 0,
      firstAddedMs: null,
      firstActiveMs: null,
      lastFinishedMs: null,
    });
  });
});

describe("jobsPerSecond and median", () => {
  it("divides jobs by the span in seconds, null without a span", () => {
    expect(jobsPerSecond(2000, 1000, 2000)).toBe(2000);
    expect(jobsPerSecond(10, 1000, 1000)).toBeNull();
    expect(jobsPerSecond(10, null, 1000)).toBeNull();
  });

  it("takes the middle value, or the mean of the two middle ones", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it("takes the median of round-by-round ratios", () => {
    // Round 2 was slowed for both workers: its ratio stays that of the others.
    expect(medianPairedRatio([800, 400, 1000], [1000, 500, 1000])).toBeCloseTo(0.8, 10);
    expect(medianPairedRatio([1, 2], [0, 4])).toBe(0.5);
    expect(medianPairedRatio([], [])).toBeNull();
    expect(() => medianPairedRatio([1], [])).toThrow(/paired/);
  });
});
