import { describe, expect, it } from "vitest";
import { meanInFlight, runTimeline, sequentialTailMs, tightestWindowMs } from "../../../bench/scenarios/request-timeline.js";

describe("tightestWindowMs", () => {
  it("is the shortest span over limit+1 consecutive arrivals", () => {
    // 3 per second allowed: arrivals 0, 10, 20, 900 put 4 requests in 900 ms.
    expect(tightestWindowMs([900, 0, 20, 10, 2_000], 3)).toBe(900);
  });

  it("is null when there are too few requests to tell", () => {
    expect(tightestWindowMs([0, 1, 2], 3)).toBeNull();
  });
});

describe("sequentialTailMs", () => {
  it("measures the end of a run spent with one request at a time", () => {
    const requests = [
      // Two in flight until 20, when the first ends; from then on one at a time until 100.
      { startedAt: 0, endedAt: 20 },
      { startedAt: 5, endedAt: 25 },
      { startedAt: 25, endedAt: 50 },
      { startedAt: 50, endedAt: 75 },
      { startedAt: 75, endedAt: 100 },
    ];
    expect(sequentialTailMs(requests)).toBe(80);
  });

  it("is zero when the last requests overlap", () => {
    expect(
      sequentialTailMs([
        { startedAt: 0, endedAt: 30 },
        { startedAt: 10, endedAt: 30 },
      ]),
    ).toBe(0);
    expect(sequentialTailMs([])).toBe(0);
  });
});

describe("runTimeline", () => {
  it("places the run between spawn and exit", () => {
    const timeline = runTimeline({
      spawnedAt: 1_000,
      exitedAt: 3_000,
      pim: [{ startedAt: 1_700, endedAt: 2_500 }],
      service: [{ startedAt: 1_800, endedAt: 2_900 }],
      pimLimit: 100,
      serviceLimit: 10,
    });
    expect(timeline).toMatchObject({
      startupMs: 700,
      shutdownMs: 100,
      pimTightestWindowMs: null,
      serviceTightestWindowMs: null,
      prefixMs: null,
    });
  });

  it("measures the prefix up to the first option or record page", () => {
    const timeline = runTimeline({
      spawnedAt: 0,
      exitedAt: 1_000,
      pim: [
        { startedAt: 100, endedAt: 120, route: "/api/oauth/v1/token" },
        { startedAt: 130, endedAt: 150, route: "/api/rest/v1/attributes" },
        { startedAt: 400, endedAt: 420, route: "/api/rest/v1/reference-entities/:code/records" },
        { startedAt: 250, endedAt: 270, route: "/api/rest/v1/attributes/:code/options" },
      ],
      service: [{ startedAt: 200, endedAt: 220, route: "/api/v1/options_collections/options_collections" }],
      pimLimit: 100,
      serviceLimit: 10,
    });
    expect(timeline.prefixMs).toBe(150);
  });
});

describe("meanInFlight", () => {
  it("is the served time over the busy span", () => {
    // 4 requests of 20 ms over 0..40: 80 ms of service in 40 ms, 2 in flight on average.
    const requests = [0, 0, 20, 20].map((at) => ({ startedAt: at, endedAt: at + 20 }));
    expect(meanInFlight(requests)).toEqual({ meanInFlight: 2, meanServedMs: 20 });
    expect(meanInFlight([])).toEqual({ meanInFlight: 0, meanServedMs: 0 });
  });
});
