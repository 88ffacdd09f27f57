import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { Agent, request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRedisBudgets, type UpstreamBudgets } from "../../../../src/infra/budgets/upstream-budgets.js";
import { createHttpClient, type HttpClient } from "../../../../src/infra/http/http-client.js";
import type { RateLimiter } from "../../../../src/infra/http/sliding-window-limiter.js";
import { classifyFailure } from "../../../../src/jobs/worker/classify-failure.js";
import { keyspaceOf } from "../../../../src/infra/redis/keyspace.js";
import { z } from "zod";
import { createTestRedis, TEST_REDIS_URL, type TestRedis } from "../../../support/redis.js";
import { waitFor } from "../../../support/wait-for.js";
import { peakInWindow } from "../../../support/peak-window.js";
import type { OwnRedisServer } from "../../../../testkit/own-redis-server.js";
import { Redis } from "ioredis";
import { spawn } from "node:child_process";
import { test } from "../../../support/fixtures.js";
import { twoProcessBudgets } from "../../../support/two-process-budgets.js";
import { urgentReserveOf } from "../../../../src/infra/budgets/redis-budget-parts.js";
import { runUrgent } from "../../../../src/infra/budgets/request-urgency.js";
import type { SettleRequest } from "../../../../src/infra/http/sliding-window-limiter.js";

const IDENTITY = "service-n-test-account";
/** `http.max_retry_after_ms` of these budgets (the default). */
const MAX_PAUSE_MS = 60_000;
const silent = pino({ level: "silent" });

/** A loopback upstream that records when each request arrived (its own clock, as an upstream counts). */
async function startCountingUpstream(status: () => number = () => 200, headers: Readonly<Record<string, string>> = {}) {
  const arrivals: number[] = [];
  const server: Server = createServer((req, res) => {
    arrivals.push(performance.now());
    req.resume();
    res.writeHead(status(), { "content-type": "application/json", ...headers });
    res.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A service client of the upstream at `url` on `rateLimiter`, retrying at once (1 ms delays) up to `retry`'s bounds. */
function serviceClient(
  url: string,
  rateLimiter: RateLimiter,
  retry: { readonly maxAttempts: number; readonly maxRetryAfterMs: number },
): HttpClient {
  return createHttpClient({
    upstream: "service",
    baseUrl: url,
    dispatcher: new Agent(),
    logger: silent,
    retry: { ...retry, baseDelayMs: 1, maxDelayMs: 1 },
    timeoutMs: 5_000,
    rateLimiter,
  });
}

describe("shared upstream budgets in Redis (two connections standing for two processes)", () => {
  let redis: TestRedis;
  let other: Redis;
  let budgetsA: UpstreamBudgets;
  let budgetsB: UpstreamBudgets;

  beforeEach(async () => {
    redis = await createTestRedis();
    ({ other, budgetsA, budgetsB } = twoProcessBudgets(redis, { leaseMs: 2_000, maxPauseMs: MAX_PAUSE_MS }));
  });

  afterEach(async () => {
    other.disconnect();
    await redis.cleanup();
  });

  /** The second process' next request: granted only once the pause has ended for everyone (0: its last millisecond, -2: gone). */
  async function expectGrantedOncePauseEnds(pauseKey: string): Promise<void> {
    const settle = await budgetsB.rate(IDENTITY, { limit: 10 }, "2").acquire();
    expect(await redis.redis.pttl(pauseKey)).toBeLessThanOrEqual(0);
    settle();
  }

  it("four projects on two processes never send more than the budget in any 1,000 ms window", async () => {
    const upstream = await startCountingUpstream();
    try {
      const views = [
        budgetsA.rate(IDENTITY, { limit: 10 }, "1"),
        budgetsA.rate(IDENTITY, { limit: 10 }, "2"),
        budgetsB.rate(IDENTITY, { limit: 10 }, "3"),
        budgetsB.rate(IDENTITY, { limit: 10 }, "4"),
      ];
      await Promise.all(
        views.flatMap((view) =>
          Array.from({ length: 8 }, async () => {
            const settle = await view.acquire();
            try {
              await (await request(upstream.url)).body.dump();
            } finally {
              settle();
            }
          }),
        ),
      );
      expect(upstream.arrivals).toHaveLength(32);
      expect(peakInWindow(upstream.arrivals, 1000)).toBeLessThanOrEqual(10);
    } finally {
      await upstream.close();
    }
  });

  it("calls in flight are bounded across processes", async () => {
    let inFlight = 0;
    let peak = 0;
    const slots = [budgetsA.slots([{ identity: IDENTITY, limit: 4 }], "1"), budgetsB.slots([{ identity: IDENTITY, limit: 4 }], "2")];
    await Promise.all(
      slots.flatMap((gate) =>
        Array.from({ length: 6 }, () =>
          gate.run(async () => {
            inFlight += 1;
            peak = Math.max(peak, inFlight);
            // Held across a Redis round trip, so the other process's callers do ask meanwhile.
            await redis.redis.ping();
            await other.ping();
            inFlight -= 1;
          }),
        ),
      ),
    );
    expect(peak).toBeLessThanOrEqual(4);
    expect(peak).toBeGreaterThan(1);
  });

  it("a 429 without Retry-After pauses the identity for every process: the other one's next request waits for the pause to end", async () => {
    let answered429 = false;
    const upstream = await startCountingUpstream(() => {
      if (answered429) return 200;
      answered429 = true;
      return 429;
    });
    const pauseKey = keyspaceOf(redis.redis, redis.prefix).budgetKey(IDENTITY, "pause");
    try {
      const client = serviceClient(upstream.url, budgetsA.rate(IDENTITY, { limit: 10 }, "1"), { maxAttempts: 1, maxRetryAfterMs: 1 });
      await expect(client.send({ method: "GET", url: "x", schema: z.unknown() })).rejects.toMatchObject({ status: 429 });
      await waitFor(async () => (await redis.redis.pttl(pauseKey)) > 0, { timeoutMs: 5_000, what: "the pause to be set in Redis" });
      await expectGrantedOncePauseEnds(pauseKey);
    } finally {
      await upstream.close();
    }
  });

  it("a 429 with Retry-After: 900 pauses the identity for every process for at most http.max_retry_after_ms; the request fails with the whole 900 s", async () => {
    const upstream = await startCountingUpstream(() => 429, { "retry-after": "900" });
    const pauseKey = keyspaceOf(redis.redis, redis.prefix).budgetKey(IDENTITY, "pause");
    try {
      const client = serviceClient(upstream.url, budgetsA.rate(IDENTITY, { limit: 10 }, "1"), {
        maxAttempts: 3,
        maxRetryAfterMs: MAX_PAUSE_MS,
      });
      const error: unknown = await client.send({ method: "GET", url: "x", schema: z.unknown() }).catch((caught: unknown) => caught);
      // Not waited for here: the job queue delays the job by the whole Retry-After.
      expect(error).toMatchObject({ status: 429, retryAfterMs: 900_000, transient: true });
      expect(classifyFailure(error)).toMatchObject({ kind: "delay", delayMs: 900_000 });
      expect(upstream.arrivals).toHaveLength(1);
      await waitFor(async () => (await redis.redis.pttl(pauseKey)) > 0, { timeoutMs: 5_000, what: "the pause to be set in Redis" });
      // Every other caller of the identity is held back for the cap at most, not for 15 minutes.
      expect(await redis.redis.pttl(pauseKey)).toBeLessThanOrEqual(MAX_PAUSE_MS);
    } finally {
      await upstream.close();
    }
  });

  it("a pause longer than http.max_retry_after_ms already on the budget (an older version's) is refused, not waited for: nothing sent, transient HTTP_PAUSED", async () => {
    const upstream = await startCountingUpstream();
    const pauseKey = keyspaceOf(redis.redis, redis.prefix).budgetKey(IDENTITY, "pause");
    try {
      await redis.redis.set(pauseKey, "1", "PX", 900_000);
      const client = serviceClient(upstream.url, budgetsB.rate(IDENTITY, { limit: 10 }, "2"), {
        maxAttempts: 3,
        maxRetryAfterMs: MAX_PAUSE_MS,
      });
      const error: unknown = await client.send({ method: "GET", url: "x", schema: z.unknown() }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "HTTP_PAUSED", transient: true, status: undefined });
      const retryAfterMs = (error as { retryAfterMs: number }).retryAfterMs;
      expect(retryAfterMs).toBeGreaterThan(MAX_PAUSE_MS);
      expect(retryAfterMs).toBeLessThanOrEqual(900_000);
      // The job layer delays the job by the pause's end rather than holding its slot and lock.
      expect(classifyFailure(error)).toMatchObject({ kind: "delay", delayMs: retryAfterMs });
      expect(upstream.arrivals).toEqual([]);
      // Nothing was counted in the window for the request that was not sent.
      expect(await redis.redis.zcard(keyspaceOf(redis.redis, redis.prefix).budgetKey(IDENTITY, "window"))).toBe(0);
      // Once the pause is within the cap again, it is waited for as before.
      await redis.redis.set(pauseKey, "1", "PX", 300);
      await expectGrantedOncePauseEnds(pauseKey);
    } finally {
      await upstream.close();
    }
  });

  it("a process killed while holding slots: its leases expire and the slots come back", async () => {
    const slotsKey = keyspaceOf(redis.redis, redis.prefix).budgetKey(IDENTITY, "slots");
    // A real process takes every slot and holds them (renewing its leases) until it is killed.
    const script = `
      import { createRedisBudgets } from "./dist/src/infra/budgets/upstream-budgets.js";
      import { keyspaceOf } from "./dist/src/infra/redis/keyspace.js";
      import { Redis } from "ioredis";
      import { pino } from "pino";
      const redis = new Redis(process.env.URL);
      const budgets = createRedisBudgets({ redis, keyspace: keyspaceOf(redis, process.env.PREFIX), leaseMs: 2000, maxPauseMs: 60000, logger: pino({ level: "silent" }) });
      const gate = budgets.slots([{ identity: "${IDENTITY}", limit: 4 }], "1");
      for (let i = 0; i < 4; i += 1) void gate.run(() => new Promise(() => {}));
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, URL: TEST_REDIS_URL, PREFIX: redis.prefix },
      stdio: "ignore",
    });
    try {
      await waitFor(async () => (await redis.redis.zcard(slotsKey)) === 4, { timeoutMs: 15_000, what: "the child to hold every slot" });
      const held = await redis.redis.zrange(slotsKey, 0, -1);
      expect(held.every((member) => member.startsWith(`${child.pid}.`))).toBe(true);
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      // Measured once the child is gone: a renewal it had already sent is then behind us.
      await exited;
      const [seconds, micros] = await redis.redis.time();
      const killedAt = Number(seconds) * 1000 + Number(micros) / 1000;
      const leaseEnds = (await redis.redis.zrange(slotsKey, 0, -1, "WITHSCORES")).filter((_, index) => index % 2 === 1).map(Number);
      // No lease outlives the kill by more than the stated lease (2 s here, `budgets.lease_ms`).
      for (const end of leaseEnds) expect(end).toBeLessThanOrEqual(killedAt + 2_000);
      const gate = budgetsA.slots([{ identity: IDENTITY, limit: 4 }], "2");
      await Promise.all(Array.from({ length: 4 }, () => gate.run(() => Promise.resolve())));
      // A slot is given back without waiting for Redis (its lease would end it anyway): the set empties shortly after.
      await waitFor(async () => (await redis.redis.zcard(slotsKey)) === 0, { timeoutMs: 15_000, what: "the four slots to be given back" });
    } finally {
      child.kill("SIGKILL");
    }
  });

  describe("a small job's requests (urgent: request-urgency.ts) go ahead", () => {
    /** Five requests a window: one left to an urgent request while one waits (urgentReserveOf). */
    const BUDGET = { limit: 5, windowMs: 1_500 };
    const URGENT_IDENTITY = "service-n-shared-account";

    it("an urgent request takes the next room ahead of a full sync's that asked first, and the full sync's follows", async () => {
      expect(urgentReserveOf(BUDGET.limit)).toBe(1);
      const windowKey = keyspaceOf(redis.redis, redis.prefix).budgetKey(URGENT_IDENTITY, "window");
      const fullSync = budgetsA.rate(URGENT_IDENTITY, BUDGET, "1");
      const urgentProject = budgetsB.rate(URGENT_IDENTITY, BUDGET, "2");
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
      const fullSync = budgetsA.rate(URGENT_IDENTITY, BUDGET, "1");
      const settles = await Promise.all(Array.from({ length: BUDGET.limit }, () => fullSync.acquire()));
      expect(await redis.redis.zcard(keyspaceOf(redis.redis, redis.prefix).budgetKey(URGENT_IDENTITY, "window"))).toBe(BUDGET.limit);
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
});

describe("shared upstream budgets when Redis does not answer", () => {
  let server: OwnRedisServer;
  let client: Redis;

  test.beforeEach(async ({ ownRedis }) => {
    server = await ownRedis.start();
    client = ownRedis.keep(new Redis(server.url, { maxRetriesPerRequest: 1, retryStrategy: () => 100 }));
    client.on("error", () => undefined);
  });

  test("fails closed: a request waits while Redis is away and goes once it answers again", async () => {
    const budgets = createRedisBudgets({
      redis: client,
      keyspace: keyspaceOf(client, "pim-sync-test"),
      leaseMs: 2_000,
      maxPauseMs: MAX_PAUSE_MS,
      logger: silent,
    });
    const view = budgets.rate(IDENTITY, { limit: 10 }, "1");
    await server.kill();
    let granted = false;
    const acquired = view.acquire().then((settle) => {
      granted = true;
      return settle;
    });
    // Several failed attempts at Redis, and still no grant.
    await waitFor(
      async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return client.status !== "ready";
      },
      { timeoutMs: 5_000, what: "the client to see Redis gone" },
    );
    const failures = await new Promise<number>((resolve) => {
      let seen = 0;
      const onError = (): void => {
        seen += 1;
        if (seen >= 3) {
          client.off("error", onError);
          resolve(seen);
        }
      };
      client.on("error", onError);
    });
    expect(failures).toBeGreaterThanOrEqual(3);
    expect(granted).toBe(false);
    await server.start();
    const settle = await acquired;
    expect(granted).toBe(true);
    expect(await client.zcard(keyspaceOf(client, "pim-sync-test").budgetKey(IDENTITY, "window"))).toBe(1);
    settle();
  });
});
