/**
 * What the shared limiter adds per request: the budgets one PIM call goes through (the
 * connection's and the instance's in-flight slots, then the instance's per-second window, as
 * src/features/project-runtime.ts wires them), taken and given back with room to spare, so nothing waits
 * and only the mechanism is timed. Through Redis (what worker processes use) and in the process
 * (what `sync --once` without Redis uses), on the same machine, one after the other.
 *
 * The limits are far above the real ones so that a thousand calls in a second never wait:
 * waiting is the fleet's wall time, not this figure.
 */
import { performance } from "node:perf_hooks";
import { pino } from "pino";
import { createProcessBudgets, createRedisBudgets, type UpstreamBudgets } from "../../src/infra/budgets/upstream-budgets.js";
import { createKeyspace } from "../../src/infra/redis/keyspace.js";
import type { RedisClient } from "../../src/infra/redis/redis-client.js";
import { percentile } from "../scenarios/latency-percentiles.js";
import { round } from "../report/round.js";

const WARM_UP = 200;
const SAMPLES = 1_000;
const ROOMY = 1_000_000;
/** The settings' default lease (budgets.lease_ms). */
const LEASE_MS = 5_000;
/** `http.max_retry_after_ms`'s default: no pause is set here, it only has to be given. */
const MAX_PAUSE_MS = 60_000;

export interface LimiterOverhead {
  readonly redisP50Us: number;
  readonly redisP99Us: number;
  readonly processP50Us: number;
  readonly processP99Us: number;
  readonly samples: number;
}

async function timeCalls(budgets: UpstreamBudgets): Promise<number[]> {
  const slots = budgets.slots(
    [
      { identity: "bench-connection", limit: ROOMY },
      { identity: "bench-instance", limit: ROOMY },
    ],
    "bench",
  );
  const rate = budgets.rate("bench-instance", { limit: ROOMY }, "bench");
  const call = (): Promise<void> =>
    slots.run(async () => {
      const settle = await rate.acquire();
      settle();
    });
  for (let index = 0; index < WARM_UP; index += 1) await call();
  const micros: number[] = [];
  for (let index = 0; index < SAMPLES; index += 1) {
    const started = performance.now();
    await call();
    micros.push((performance.now() - started) * 1000);
  }
  return micros;
}

export async function measureLimiterOverhead(args: { readonly redis: RedisClient; readonly prefix: string }): Promise<LimiterOverhead> {
  const logger = pino({ level: "silent" });
  const shared = await timeCalls(
    createRedisBudgets({
      redis: args.redis,
      keyspace: createKeyspace(args.prefix, { cluster: false }),
      leaseMs: LEASE_MS,
      maxPauseMs: MAX_PAUSE_MS,
      logger,
    }),
  );
  const local = await timeCalls(createProcessBudgets({ maxPauseMs: MAX_PAUSE_MS }));
  const us = (values: readonly number[], p: number): number => round(percentile(values, p) ?? Number.NaN, 0);
  return {
    redisP50Us: us(shared, 50),
    redisP99Us: us(shared, 99),
    processP50Us: us(local, 50),
    processP99Us: us(local, 99),
    samples: SAMPLES,
  };
}
