import { pino } from "pino";
import { describe, expect } from "vitest";
import { budgetsOfProjects, readBudgetUsage, type ProjectBudget } from "../../../../src/infra/budgets/budget-usage.js";
import { createRedisBudgets } from "../../../../src/infra/budgets/upstream-budgets.js";
import { pimInstanceBudgetOf } from "../../../../src/infra/budgets/budget-identity.js";
import { keyspaceOf } from "../../../../src/infra/redis/keyspace.js";
import { parseSettings } from "../../../../src/settings/load-settings.js";
import { test } from "../../../support/fixtures.js";
import { waitFor } from "../../../support/wait-for.js";

const silent = pino({ level: "silent" });

function settingsOf(projects: readonly Record<string, unknown>[]) {
  return parseSettings(JSON.stringify({ projects }), "budget-usage-test", {});
}

const project = (id: number, pimUrl: string, client: string) => ({
  id,
  pim: { url: pimUrl, client_id: client, secret: "pim-secret", username: "sync", password: "pim-password" },
  service: { url: "http://service.test", token: "service-token-0123" },
});

describe("the budgets the console shows", () => {
  test("projects on one PIM instance share its budgets; each connection and service account has its own", () => {
    const settings = settingsOf([
      project(1, "http://pim.test", "a"),
      project(2, "http://pim.test/", "b"),
      project(3, "http://other.test", "a"),
    ]);
    const budgets = budgetsOfProjects(settings.projects);
    const instance = budgets.find(
      (budget) => budget.identity === pimInstanceBudgetOf(settings.projects[0]!.pim) && budget.kind === "requests",
    );
    expect(instance?.projects).toEqual([1, 2]);
    expect(budgets.filter((budget) => budget.identity.startsWith("pim-connection")).map((budget) => budget.projects)).toEqual([
      [1],
      [2],
      [3],
    ]);
    // One service account (same URL and token) for all three.
    expect(budgets.filter((budget) => budget.identity.startsWith("service")).map((budget) => budget.projects)).toEqual([[1, 2, 3]]);
    // No credential in an identity (they go into Redis keys and answers).
    expect(JSON.stringify(budgets)).not.toMatch(/pim-secret|pim-password|service-token/);
  });

  test("reads the requests in the window, the calls in flight and a pause, as the shared budgets keep them", async ({ redis }) => {
    const keyspace = keyspaceOf(redis.redis, redis.prefix);
    const budgets = createRedisBudgets({ redis: redis.redis, keyspace, leaseMs: 10_000, maxPauseMs: 60_000, logger: silent });
    const rate: ProjectBudget = { identity: "service-n-usage", kind: "requests", limit: 5, windowMs: 60_000, projects: [1] };
    const slots: ProjectBudget = { identity: "pim-connection-n-usage", kind: "in_flight", limit: 4, windowMs: 0, projects: [1] };
    expect((await readBudgetUsage(redis.redis, keyspace, [rate, slots])).map((usage) => [usage.inUse, usage.pausedForMs])).toEqual([
      [0, 0],
      [0, 0],
    ]);

    const limiter = budgets.rate(rate.identity, { limit: rate.limit, windowMs: rate.windowMs }, "1");
    const answered = await limiter.acquire();
    answered();
    const inFlight = await limiter.acquire();
    // A call held in flight through the project's slots until the test lets it go.
    let letGo = (): void => undefined;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let started = (): void => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const call = budgets.slots([{ identity: slots.identity, limit: slots.limit }], "1").run(async () => {
      started();
      await held;
    });
    await running;
    limiter.pauseFor(30_000);

    // The pause is sent without waiting for it: read until it shows.
    const [rateUse, slotUse] = await waitFor(
      async () => {
        const usage = await readBudgetUsage(redis.redis, keyspace, [rate, slots]);
        return (usage[0]?.pausedForMs ?? 0) > 0 ? usage : undefined;
      },
      { timeoutMs: 10_000, what: "the pause to show" },
    );
    expect(rateUse?.inUse).toBe(2);
    expect(rateUse?.pausedForMs).toBeGreaterThan(0);
    expect(slotUse?.inUse).toBe(1);
    letGo();
    await call;
    inFlight();
  });
});
