import { describe, expect, it } from "vitest";
import { groupSizes, planLargeFleet } from "../../bench/fleet/large-fleet-shape.js";
import { releasedFloorSeconds } from "../../bench/floor/released-floor.js";
import { parseRedisInfo, redisUsageOf } from "../../bench/redis/redis-info.js";

describe("groupSizes", () => {
  it("gives each share its projects and one group per project left alone, adding up to the total", () => {
    expect(groupSizes(200, [0.3, 0.25, 0.2, 0.2])).toEqual([60, 50, 40, 40, ...Array.from({ length: 10 }, () => 1)]);
    const odd = groupSizes(37, [0.4, 0.3, 0.25]);
    expect(odd.reduce((sum, size) => sum + size, 0)).toBe(37);
    expect(odd.filter((size) => size === 1).length).toBeGreaterThanOrEqual(1);
  });

  it("refuses a total too small for its shares", () => {
    expect(() => groupSizes(2, [0.4, 0.3, 0.25])).toThrow(RangeError);
  });
});

describe("planLargeFleet", () => {
  const plan = planLargeFleet(200, 20261122);

  it("has 200 projects on 14 service accounts and 13 PIM connections, some shared, some alone", () => {
    expect(plan.projects).toHaveLength(200);
    expect(new Set(plan.projects.map((project) => project.id)).size).toBe(200);
    expect(plan.serviceAccounts).toBe(14);
    expect(plan.pimConnections).toBe(13);
    const sizes = (key: "service" | "pim"): number[] => {
      const counts = new Map<number, number>();
      for (const project of plan.projects) counts.set(project[key], (counts.get(project[key]) ?? 0) + 1);
      return [...counts.values()].sort((a, b) => b - a);
    };
    expect(sizes("service").slice(0, 4)).toEqual([60, 50, 40, 40]);
    expect(sizes("pim").slice(0, 3)).toEqual([80, 60, 50]);
    expect(sizes("pim").filter((size) => size === 1)).toHaveLength(10);
  });

  it("cuts the two groupings across each other: an account's projects read several PIM connections", () => {
    const connectionsOfBusiest = new Set(plan.projects.filter((project) => project.service === 0).map((project) => project.pim));
    expect(connectionsOfBusiest.size).toBeGreaterThan(1);
  });

  it("puts the small jobs on the busiest account and the PIM its simulator writes added options into", () => {
    const small = plan.projects.filter((project) => project.role === "small-job");
    expect(small).toHaveLength(4);
    for (const project of small) expect(project).toMatchObject({ service: 0, pim: plan.serviceLinkedPim[0] });
  });

  it("spreads the event projects over several accounts, and schedules the rest", () => {
    const events = plan.projects.filter((project) => project.role === "events");
    expect(events).toHaveLength(10);
    expect(new Set(events.map((project) => project.service)).size).toBeGreaterThan(2);
    expect(plan.projects.filter((project) => project.role === "scheduled")).toHaveLength(186);
  });

  it("is the same for the same seed", () => {
    expect(planLargeFleet(200, 20261122)).toEqual(plan);
  });
});

describe("releasedFloorSeconds", () => {
  it("is requests / rate when everything is released at once", () => {
    expect(
      releasedFloorSeconds(
        [
          { releaseS: 0, requests: 70 },
          { releaseS: 0, requests: 30 },
        ],
        10,
      ),
    ).toBe(10);
  });

  it("counts what is released late from its release on", () => {
    // 10 requests at 0 (1 s), then 50 released at 8 s: 8 + 5 = 13 s, not 6 s.
    expect(
      releasedFloorSeconds(
        [
          { releaseS: 8, requests: 50 },
          { releaseS: 0, requests: 10 },
        ],
        10,
      ),
    ).toBe(13);
  });

  it("keeps the plain floor when the late work is small", () => {
    expect(
      releasedFloorSeconds(
        [
          { releaseS: 0, requests: 400 },
          { releaseS: 5, requests: 10 },
        ],
        10,
      ),
    ).toBe(41);
  });

  it("refuses a rate that is not positive", () => {
    expect(() => releasedFloorSeconds([], 0)).toThrow(RangeError);
  });
});

describe("redisUsageOf", () => {
  const info = [
    "# Memory",
    "used_memory:1048576",
    "used_memory_human:1.00M",
    "used_memory_peak:2097152",
    "",
    "# CPU",
    "used_cpu_sys:1.250000",
    "used_cpu_user:2.500000",
    "# Clients",
    "connected_clients:17",
    "# Stats",
    "total_commands_processed:12345",
  ].join("\r\n");

  it("reads memory, CPU (system + user), clients and commands from INFO", () => {
    expect(redisUsageOf(info)).toEqual({
      usedMemoryBytes: 1_048_576,
      usedMemoryPeakBytes: 2_097_152,
      cpuSeconds: 3.75,
      connectedClients: 17,
      totalCommands: 12_345,
    });
  });

  it("skips section headers and keeps values with colons whole", () => {
    expect(parseRedisInfo("# Server\r\nexecutable:/usr/bin/redis-server\r\nconfig_file:C:\\redis.conf").get("config_file")).toBe(
      "C:\\redis.conf",
    );
  });

  it("fails on a missing field rather than reporting 0", () => {
    expect(() => redisUsageOf("used_memory:1")).toThrow(/used_memory_peak/);
  });
});
