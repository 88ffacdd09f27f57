import { describe, expect } from "vitest";
import { adminRouteRules } from "../../../../src/server/admin/admin-route-rules.js";
import { adminRoutes } from "../../../../src/server/admin/admin-routes.js";
import { createAuthGate } from "../../../../src/server/auth/auth-gate.js";
import { createRedisHeldStore } from "../../../../src/features/sync/held/redis-held-store.js";
import { createRedisHistoryStore } from "../../../../src/stores/history/redis-history-store.js";
import { createJobAdmin } from "../../../../src/jobs/admin/job-admin.js";
import type { JobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { queueNameOf } from "../../../../src/infra/redis/queue-names.js";
import { createHttpApp } from "../../../../src/server/http/create-http-app.js";
import { serverSchema } from "../../../../src/settings/settings-schema.js";
import type { TestRedis } from "../../../support/redis.js";
import { silentLogger } from "../../../support/silent-logger.js";
import { test } from "../../../support/fixtures.js";

describe("the admin route table decides every route the admin surface registers", () => {
  let redis: TestRedis;
  let queues: JobQueues;

  test("lists every (method, route) bull-board and the admin API register, and no route that is not registered", async ({
    redis: testRedis,
    queues: projectQueues,
  }) => {
    redis = testRedis;
    queues = projectQueues;
    const limits = serverSchema.parse({});
    const app = createHttpApp({ limits, logger: silentLogger() });
    const registered = new Set<string>();
    app.addHook("onRoute", (route) => {
      for (const method of [route.method].flat()) if (method !== "HEAD") registered.add(`${method} ${route.url}`);
    });
    await app.register(adminRoutes, {
      users: [{ name: "ada", password: "ada-password-0123", role: "admin" }],
      admin: createJobAdmin(queues),
      queues,
      review: {
        history: createRedisHistoryStore(redis.redis, redis.prefix, { retentionMs: 60_000 }),
        held: createRedisHeldStore(redis.redis, redis.prefix),
      },
      logger: silentLogger(),
      redisTimeoutMs: 5_000,
      console: {
        retentionMs: 60_000,
        sources: {
          projects: [67],
          eventProjects: new Set<number>(),
          jobStatus: () => Promise.reject(new Error("not read: the routes are only registered")),
          lastEventAt: async () => null,
          held: async () => [],
          budgets: async () => [],
          optionLabels: async () => [],
        },
      },
      gate: createAuthGate({ surface: "admin", limits: limits.auth_throttle, logger: silentLogger() }),
    });
    await app.ready();
    await app.close();

    const rules = adminRouteRules([queueNameOf(67)]);
    const listed = new Set(rules.map((rule) => `${rule.method} ${rule.url}`));
    const listedUrls = new Set(rules.map((rule) => rule.url));
    // A registered method the table does not list is decided when the table lists its route
    // under another method: the guard answers 405 (the admin API's POST routes' GET/PUT/... twins).
    const undecided = [...registered].filter((route) => !listed.has(route) && !listedUrls.has(route.slice(route.indexOf(" ") + 1)));
    expect(undecided, "routes registered under /admin that the table does not decide").toEqual([]);
    expect(
      [...listed].filter((route) => !registered.has(route)),
      "rules for routes nobody registers",
    ).toEqual([]);
    expect(registered.size).toBeGreaterThan(40);
  });
});
