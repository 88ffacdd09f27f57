import { describe, expect, it } from "vitest";
import { computeFloor, pimRate, REAL_BUDGETS } from "../../../bench/floor/compute-floor.js";

describe("computeFloor", () => {
  it("takes the PIM's 100 req/s when 4 in flight at the latency would allow more", () => {
    expect(pimRate(20)).toBe(100);
    expect(pimRate(0)).toBe(100);
  });

  it("takes 4 in flight / latency when that is lower", () => {
    expect(pimRate(100)).toBeCloseTo(40, 10);
  });

  it("is the slower upstream's time", () => {
    expect(computeFloor({ pim: 1_000, service: 50 }, 20)).toEqual({ pimSeconds: 10, serviceSeconds: 5, seconds: 10, boundBy: "pim" });
    expect(computeFloor({ pim: 100, service: 670 }, 20)).toMatchObject({ seconds: 67, boundBy: "service" });
  });

  it("uses the budgets it is given", () => {
    const floor = computeFloor({ pim: 100, service: 100 }, 20, { ...REAL_BUDGETS, serviceRequestsPerSecond: 20 });
    expect(floor.serviceSeconds).toBe(5);
  });
});
