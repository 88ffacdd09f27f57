import { describe, expect, it } from "vitest";
import { quietDelayMs } from "../../../../src/jobs/queues/quiet-delay.js";

describe("quietDelayMs", () => {
  it("starts the job a quiet gap after the last request while the window allows", () => {
    expect(quietDelayMs({ now: 10_300, queuedAt: 10_000, quietMs: 200, maxMs: 1_000 })).toBe(200);
  });

  it("never later than the window's end, however often requests come", () => {
    expect(quietDelayMs({ now: 10_900, queuedAt: 10_000, quietMs: 200, maxMs: 1_000 })).toBe(100);
  });

  it("at once past the window's end", () => {
    expect(quietDelayMs({ now: 12_000, queuedAt: 10_000, quietMs: 200, maxMs: 1_000 })).toBe(0);
  });

  it("a quiet gap as long as the window keeps the window's end (the fixed window of before)", () => {
    expect(quietDelayMs({ now: 10_400, queuedAt: 10_000, quietMs: 1_000, maxMs: 1_000 })).toBe(600);
  });
});
