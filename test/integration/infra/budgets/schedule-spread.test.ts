import { pino } from "pino";
import { describe, expect } from "vitest";
import { createJobQueues, type JobQueues } from "../../../../src/jobs/queues/job-queues.js";
import { scheduleOffsetMs } from "../../../../src/jobs/queues/schedule-offset.js";
import { upsertSchedules } from "../../../../src/jobs/schedules/upsert-schedules.js";
import { SYNC_SCHEDULER_ID } from "../../../../src/infra/redis/queue-names.js";
import { projectSchema } from "../../../../src/settings/settings-schema.js";
import type { TestRedis } from "../../../support/redis.js";
import { test } from "../../../support/fixtures.js";

const CRON = "*/15 * * * *";
const PROJECTS = Array.from({ length: 50 }, (_, index) => 1000 + index);
const RETENTION = { keep_completed_days: 1, keep_failed_days: 1 };

function project(id: number) {
  return projectSchema.parse({
    id,
    pim: { url: "http://127.0.0.1:1", client_id: "c", secret: "s", username: "u", password: "p" },
    service: { url: "http://127.0.0.1:2", token: "t" },
    schedule: { cron: CRON, timezone: "UTC" },
  });
}

describe("scheduled syncs of 50 projects on one cron start spread over the jitter window (real Redis, BullMQ schedulers)", () => {
  let redis: TestRedis;
  let queues: JobQueues;

  test.beforeEach(({ redis: testRedis, closeAfter }) => {
    redis = testRedis;
    queues = closeAfter(
      createJobQueues({
        connection: redis.redis,
        prefix: redis.prefix,
        projects: PROJECTS,
        retention: RETENTION,
        scheduleJitterMs: 60_000,
      }),
    );
  });

  test("each project's next run is the cron's time plus its own stable offset; they do not start in one second", async () => {
    const result = await upsertSchedules({
      redis: redis.redis,
      prefix: redis.prefix,
      queues,
      projects: PROJECTS.map(project),
      retention: RETENTION,
      logger: pino({ level: "silent" }),
    });
    expect(result).toBe("upserted");
    const nextRuns = await Promise.all(
      PROJECTS.map(async (id) => {
        const scheduler = await queues.queueFor(id).getJobScheduler(SYNC_SCHEDULER_ID);
        if (scheduler?.next === undefined) throw new Error(`project ${id} has no next run`);
        return { id, next: scheduler.next };
      }),
    );
    // Every next run lies within a minute after a quarter-hour (the one after that project's
    // upsert: the upserts may straddle a quarter-hour, so each is measured from its own).
    const quarter = 15 * 60_000;
    const startTimes = nextRuns.map((run) => ({ project: run.id, afterCronMs: run.next % quarter }));
    const quarters = new Set(nextRuns.map((run) => run.next - (run.next % quarter)));
    expect(quarters.size).toBeLessThanOrEqual(2);
    for (const start of startTimes) {
      expect(start.afterCronMs).toBe(scheduleOffsetMs(start.project, { pattern: CRON, tz: "UTC" }, 60_000));
      expect(start.afterCronMs).toBeLessThan(60_000);
    }
    const perSecond = new Map<number, number>();
    for (const start of startTimes)
      perSecond.set(Math.floor(start.afterCronMs / 1000), (perSecond.get(Math.floor(start.afterCronMs / 1000)) ?? 0) + 1);
    expect(perSecond.size).toBeGreaterThanOrEqual(25);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(5);
  });
});
