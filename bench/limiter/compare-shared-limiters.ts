/**
 * The shared limiter's choice, measured (README, "Shared upstream budgets"): pim-sync's Lua
 * sliding window (src/infra/budgets/) against rate-limiter-flexible's RateLimiterRedis, on the Redis
 * at PIM_SYNC_BENCH_REDIS_URL (default redis://127.0.0.1:6379), keys under a fresh prefix.
 *
 * - cost: one acquire (+ the answer's settle for the Lua window) per request, p50 and p99, on a
 *   budget that never makes anyone wait;
 * - conformance: two connections (standing for two processes), 8 callers each, 3 s of demand at
 *   a 10 requests/s budget against a loopback upstream answering in 20-120 ms: the most
 *   requests that reached it in any 1,000 ms.
 *
 *   node dist/bench/limiter/compare-shared-limiters.js
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { pino } from "pino";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { request } from "undici";
import { redisRateLimiter } from "../../src/infra/budgets/redis-budget-parts.js";
import { createKeyspace } from "../../src/infra/redis/keyspace.js";

const URL_OF_REDIS = process.env.PIM_SYNC_BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const SAMPLES = 2_000;
const BUDGET = 10;
const DEMAND_MS = 3_000;
const CALLERS = 8;

type Take = () => Promise<() => void>;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function peakInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  for (let start = 0, end = 0; start < sorted.length; start += 1) {
    while (end < sorted.length && (sorted[end] ?? 0) < (sorted[start] ?? 0) + windowMs) end += 1;
    peak = Math.max(peak, end - start);
  }
  return peak;
}

async function costOf(take: Take): Promise<{ p50Us: number; p99Us: number }> {
  const samples: number[] = [];
  for (let index = 0; index < SAMPLES; index += 1) {
    const started = performance.now();
    const settle = await take();
    settle();
    samples.push((performance.now() - started) * 1000);
  }
  samples.sort((a, b) => a - b);
  return { p50Us: Math.round(percentile(samples, 50)), p99Us: Math.round(percentile(samples, 99)) };
}

async function conformanceOf(
  takes: readonly Take[],
  upstreamUrl: string,
  arrivals: number[],
): Promise<{ requests: number; peakPerSecond: number }> {
  arrivals.length = 0;
  const until = performance.now() + DEMAND_MS;
  await Promise.all(
    takes.flatMap((take) =>
      Array.from({ length: CALLERS }, async () => {
        while (performance.now() < until) {
          const settle = await take();
          try {
            await (await request(upstreamUrl)).body.dump();
          } finally {
            settle();
          }
        }
      }),
    ),
  );
  return { requests: arrivals.length, peakPerSecond: peakInWindow(arrivals, 1000) };
}

/** rate-limiter-flexible has no "wait for room": a refused caller sleeps what it is told and asks again. */
function flexibleTake(limiter: RateLimiterRedis): Take {
  return async () => {
    for (;;) {
      try {
        await limiter.consume("identity");
        return () => undefined;
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        await sleep(Math.max(1, refusal.msBeforeNext));
      }
    }
  };
}

async function main(): Promise<void> {
  const prefix = `pim-sync-bench.${randomUUID()}`;
  const one = new Redis(URL_OF_REDIS);
  const two = new Redis(URL_OF_REDIS);
  const arrivals: number[] = [];
  const upstream = createServer((req, res) => {
    arrivals.push(performance.now());
    req.resume();
    setTimeout(() => res.end("{}"), 20 + Math.random() * 100);
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`;
  const logger = pino({ level: "silent" });
  try {
    const lua = (redis: Redis, identity: string, limit: number): Take => {
      const limiter = redisRateLimiter(
        { redis, keyspace: createKeyspace(prefix, { cluster: false }), leaseMs: 5_000, maxPauseMs: 60_000, logger },
        identity,
        {
          limit,
          windowMs: 1000,
        },
      );
      return () => limiter.acquire();
    };
    const flexible = (redis: Redis, keyPrefix: string, points: number): Take =>
      flexibleTake(new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}:${keyPrefix}`, points, duration: 1 }));

    const results = {
      lua_cost: await costOf(lua(one, "cost", 1e9)),
      flexible_cost: await costOf(flexible(one, "cost", 1e9)),
      lua_conformance: await conformanceOf([lua(one, "window", BUDGET), lua(two, "window", BUDGET)], upstreamUrl, arrivals),
      flexible_conformance: await conformanceOf([flexible(one, "window", BUDGET), flexible(two, "window", BUDGET)], upstreamUrl, arrivals),
    };
    process.stdout.write(`${JSON.stringify({ budget_per_second: BUDGET, samples: SAMPLES, ...results }, null, 2)}\n`);
  } finally {
    upstream.close();
    const keys = await one.keys(`${prefix}*`);
    if (keys.length > 0) await one.del(...keys);
    one.disconnect();
    two.disconnect();
  }
}

await main();
