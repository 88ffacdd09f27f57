import { describe, expect, it } from "vitest";
import { EVENTS_SILENT_MS, fleetOverview, type FleetSources } from "../../../../src/server/admin/fleet-overview.js";
import type { HeldPlan } from "../../../../src/features/sync/held/held-plan.js";
import type { ProjectJobStatus } from "../../../../src/jobs/admin/project-job-status.js";

const NOW = Date.parse("2026-11-27T12:00:00Z");

const quiet: ProjectJobStatus = { queue: "q", lastSync: null, nextRunAt: null, retrying: null, failedCount: 0, failed: [] };
const plan = (project: number, approved: HeldPlan["approved"]): HeldPlan => ({
  id: `p${project}`,
  project,
  collections: [{ collection: "color", options: ["blue", "green"], reason: "would delete 2 of 3 options" }],
  heldAt: "2026-11-27T10:00:00Z",
  lastHeldAt: "2026-11-27T10:00:00Z",
  run: { job: `${project}/1`, trigger: "schedule" },
  expiresAt: "2026-12-04T10:00:00Z",
  approved,
  revision: 0,
});

function sources(overrides: {
  status?: Record<number, ProjectJobStatus>;
  events?: Record<number, number | null>;
  held?: Record<number, HeldPlan[]>;
}): FleetSources {
  return {
    projects: [1, 2, 3, 4, 5],
    eventProjects: new Set(Object.keys(overrides.events ?? {}).map(Number)),
    jobStatus: async (project) => overrides.status?.[project] ?? quiet,
    lastEventAt: async (project) => overrides.events?.[project] ?? null,
    held: async (project) => overrides.held?.[project] ?? [],
    budgets: async () => [],
    optionLabels: async (_project, _collection, options) => options.map((option) => (option === "blue" ? { "en-US": "Blue" } : null)),
  };
}

describe("the fleet overview", () => {
  it("puts failing projects first, then held deletions, then silent events, then the rest by id", async () => {
    const overview = await fleetOverview(
      sources({
        status: { 4: { ...quiet, failedCount: 2 } },
        held: { 2: [plan(2, null)], 5: [plan(5, { by: "ada", at: "2026-11-27T11:00:00Z" })] },
        events: { 3: NOW - EVENTS_SILENT_MS - 1000, 1: NOW - 5_000 },
      }),
      NOW,
    );
    expect(overview.projects.map((project) => [project.project, project.attention])).toEqual([
      [4, ["failing"]],
      [2, ["held"]],
      [3, ["events_silent"]],
      [1, []],
      [5, []],
    ]);
    const two = overview.projects.find((project) => project.project === 2);
    expect([two?.heldPending, two?.heldApproved, two?.heldOptions]).toEqual([1, 0, 2]);
    expect(two?.held[0]?.collections[0]?.labels).toEqual([{ "en-US": "Blue" }, null]);
    // An approved plan waits for the next run: nothing for a person to do.
    expect(overview.projects.find((project) => project.project === 5)?.heldApproved).toBe(1);
    expect(overview.projects.find((project) => project.project === 1)?.events).toEqual({
      configured: true,
      lastAt: new Date(NOW - 5_000).toISOString(),
      ageSeconds: 5,
      subscription: { state: "active", since: null, reason: null },
      fallbackEveryMs: null,
    });
  });

  it("shows a suspended subscription and the fallback syncs' interval, and asks for a person", async () => {
    const suspended = {
      ...sources({ events: { 1: NOW - 5_000, 2: NOW - 5_000 } }),
      subscription: async (project: number) =>
        project === 2
          ? {
              state: "suspended" as const,
              notificationType: "subscription.suspended.system",
              subscriptionId: "sub-2",
              reason: "Success rate dropped below 90%",
              at: NOW - 60_000,
              receivedAt: NOW - 59_000,
            }
          : null,
      fallbackEveryMs: async (project: number) => (project === 2 ? 300_000 : null),
    } satisfies FleetSources;
    const overview = await fleetOverview(suspended, NOW);
    expect(overview.projects[0]?.project).toBe(2);
    expect(overview.projects[0]?.attention).toEqual(["subscription_down"]);
    expect(overview.projects[0]?.events.subscription).toEqual({
      state: "suspended",
      since: new Date(NOW - 60_000).toISOString(),
      reason: "Success rate dropped below 90%",
    });
    expect(overview.projects[0]?.events.fallbackEveryMs).toBe(300_000);
    // Not subscribed: no subscription to speak of.
    expect(overview.projects.find((project) => project.project === 3)?.events.subscription).toBeNull();
  });

  it("counts a subscribed project that never received an event as silent, and a last sync that failed as failing", async () => {
    const overview = await fleetOverview(
      sources({
        status: {
          1: {
            ...quiet,
            lastSync: {
              job: "1/9",
              name: "sync.run",
              finishedAt: "2026-11-27T11:00:00Z",
              outcome: "failed",
              written: 0,
              held: 0,
              failed: 1,
              missing: 0,
              failedReason: "401",
            },
          },
        },
        events: { 2: null },
      }),
      NOW,
    );
    expect(overview.projects.slice(0, 2).map((project) => [project.project, project.attention])).toEqual([
      [1, ["failing"]],
      [2, ["events_silent"]],
    ]);
    expect(overview.projects.find((project) => project.project === 3)?.events.configured).toBe(false);
  });
});
