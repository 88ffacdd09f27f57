import type { Redis } from "ioredis";
import { pino } from "pino";
import { createRedisBudgets, type UpstreamBudgets } from "../../src/infra/budgets/upstream-budgets.js";
import { keyspaceOf } from "../../src/infra/redis/keyspace.js";
import type { TestRedis } from "./redis.js";

/** The shared budgets of two processes, each on a connection of its own to the test Redis. */
export interface TwoProcessBudgets {
  /** The second process' connection (the first's is the test Redis' own): the caller disconnects it. */
  readonly other: Redis;
  readonly budgetsA: UpstreamBudgets;
  readonly budgetsB: UpstreamBudgets;
}

export function twoProcessBudgets(redis: TestRedis, options: { readonly leaseMs: number; readonly maxPauseMs: number }): TwoProcessBudgets {
  const other = redis.redis.duplicate();
  const context = { ...options, logger: pino({ level: "silent" }) };
  return {
    other,
    budgetsA: createRedisBudgets({ ...context, redis: redis.redis, keyspace: keyspaceOf(redis.redis, redis.prefix) }),
    budgetsB: createRedisBudgets({ ...context, redis: other, keyspace: keyspaceOf(other, redis.prefix) }),
  };
}
