import type { Redis } from "ioredis";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { urgentReserveOf } from "../../../../src/infra/budgets/redis-budget-parts.js";
import { runUrgent } from "../../../../src/infra/budgets/request-urgency.js";
import { createRedisBudgets, type UpstreamBudgets } from "../../../../src/infra/budgets/upstream-budgets.js";
import type { SettleRequest } from "../../../../src/infra/http/sliding-window-limiter.js";
import { keyspaceOf } from "../../../../src/infra/redis/keyspace.js";
import { createTestRedis, type TestRedis } from "../../../support/redis.js";

const IDENTITY = "service-n-shared-account";
/** Five requests a window: one left to an urgent request while one waits (urgentReserveOf). */
const BUDGET = { limit: 5, windowMs: 1_500 };
const silent = pino({ level: "silent" });

describe("urgent requests at a shared budget (two connections standing for two processes)", () => {
  let redis: TestRedis;
  let other: Redis;
  let budgetsA: UpstreamBudgets;
  let budgetsB: UpstreamBudgets;

  beforeEach(async () => {
    redis = await createTestRedis();
    other = redis.redis.duplicate();
    const context = { leaseMs: 5_000, maxPauseMs: 60_000, logger: silent };
    budgetsA = createRedisBudgets({ ...context, redis: redis.redis, keyspace: keyspaceOf(redis.redis, redis.prefix) });
    budgetsB = createRedisBudgets({ ...context, redis: other, keyspace: keyspaceOf(other, redis.prefix) });
  });

  afterEach(async () => {
    other.disconnect();
    await redis.cleanup();
  });

  it("an urgent request takes the next room ahead of a full sync's that asked first, and the full sync's follows", async () => {
    expect(urgentReserveOf(BUDGET.limit)).toBe(1);
    const windowKey = keyspaceOf(redis.redis, redis.prefix).budgetKey(IDENTITY, "window");
    const fullSync = budgetsA.rate(IDENTITY, BUDGET, "1");
    const urgentProject = budgetsB.rate(IDENTITY, BUDGET, "2");
    // The window is full, every request in flight.
    const taken: SettleRequest[] = [];
    for (let index = 0; index < BUDGET.limit; index += 1) taken.push(await fullSync.acquire());
    // A small job's request finds no room: the budget is marked for a window (the job then leaves).
    const leaving = new AbortController();
    const refused = runUrgent(() => urgentProject.acquire(leaving.signal));
    await other.ping();
    leaving.abort(new Error("the small job left"));
    await expect(refused).rejects.toThrow("the small job left");
    // One request leaves the window (as one whose lease ran out): a room opens.
    expect(await redis.redis.zpopmin(windowKey)).toHaveLength(2);
    const order: string[] = [];
    const waitingFull = fullSync.acquire().then((settle) => {
      order.push("full sync");
      return settle;
    });
    // The full sync's ask has reached Redis (one connection answers in order): it was refused the room.
    await redis.redis.ping();
    const settleUrgent = await runUrgent(() => urgentProject.acquire());
    order.push("urgent");
    expect(order).toEqual(["urgent"]);
    // The full sync is not starved: its request goes once another room opens.
    settleUrgent();
    expect(await redis.redis.zpopmin(windowKey)).toHaveLength(2);
    (await waitingFull)();
    expect(order).toEqual(["urgent", "full sync"]);
    for (const settle of taken) settle();
  });

  it("leaves the whole window to full syncs when no urgent request waits", async () => {
    const fullSync = budgetsA.rate(IDENTITY, BUDGET, "1");
    const settles = await Promise.all(Array.from({ length: BUDGET.limit }, () => fullSync.acquire()));
    expect(await redis.redis.zcard(keyspaceOf(redis.redis, redis.prefix).budgetKey(IDENTITY, "window"))).toBe(BUDGET.limit);
    for (const settle of settles) settle();
  });

  it.each([
    [1, 0],
    [2, 1],
    [5, 1],
    [10, 2],
    [100, 20],
  ])("a budget of %i requests keeps %i for urgent ones", (limit, reserve) => {
    expect(urgentReserveOf(limit)).toBe(reserve);
  });
});
