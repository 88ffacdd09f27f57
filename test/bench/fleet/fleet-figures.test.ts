import { describe, expect, it } from "vitest";
import { fleetFigures } from "../../../bench/fleet/fleet-figures.js";
import { peakInWindow, peakOverlap } from "../../../bench/fleet/upstream-peaks.js";

const answered = (startedAt: number, endedAt: number, status = 200, authScheme: string | null = "Bearer") => ({
  startedAt,
  endedAt,
  status,
  authScheme,
});

describe("peakInWindow", () => {
  it("counts the most arrivals in any window, a window closing just before the next arrival", () => {
    expect(peakInWindow([], 1000)).toBe(0);
    expect(peakInWindow([0, 100, 999.9, 1000, 1500], 1000)).toBe(3);
    // Out of order in the log (answered order), in order in time.
    expect(peakInWindow([1500, 0, 1000, 100, 999.9], 1000)).toBe(3);
    expect(peakInWindow([0, 0, 0], 1)).toBe(3);
  });
});

describe("peakOverlap", () => {
  it("counts the most intervals open at once; one ending as another starts does not overlap it", () => {
    expect(peakOverlap([])).toBe(0);
    expect(peakOverlap([answered(0, 10), answered(10, 20), answered(20, 30)])).toBe(1);
    expect(peakOverlap([answered(0, 10), answered(5, 15), answered(6, 8), answered(14, 20)])).toBe(3);
  });
});

describe("fleetFigures", () => {
  it("takes 429s from both upstreams, the service's busiest second, the PIM connection's calls in flight without token requests, and the wall time over the floor", () => {
    const pim = [
      // A token request (Basic) open beside four calls: not a call of the connection.
      answered(0, 30, 200, "Basic"),
      ...[0, 1, 2, 3].map((at) => answered(at, at + 20)),
      answered(40, 41, 429),
    ];
    const service = [...Array.from({ length: 11 }, (_, index) => answered(index * 95, index * 95 + 20)), answered(2000, 2020, 429)];
    const figures = fleetFigures({ pim, service, wallMs: 1380, latencyMs: 20 });
    expect(figures.fleet_429s).toBe(2);
    // 11 arrivals in 950 ms.
    expect(figures.fleet_peak_service_rps).toBe(11);
    expect(figures.fleet_peak_pim_in_flight).toBe(4);
    // 12 service requests at 10/s: 1.2 s, against 6 PIM requests at 100/s.
    expect(figures.floor).toMatchObject({ seconds: 1.2, boundBy: "service" });
    expect(figures.fleet_ratio).toBeCloseTo(1.15, 10);
    expect({ pim: figures.pimRequests, service: figures.serviceRequests }).toEqual({ pim: 6, service: 12 });
  });
});
