import { keyspaceOf } from "../../infra/redis/keyspace.js";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import type { Logger } from "pino";
import type { ProjectSettings } from "../../settings/settings-schema.js";
import type { JobQueues } from "../queues/job-queues.js";
import { JOB_CATALOG } from "../catalog/job-catalog.js";
import { withRedisLockIfFree } from "../queues/redis-lock.js";
import { jobOptionsFor, type JobRetention } from "../queues/job-options.js";
import { SYNC_SCHEDULER_ID } from "../../infra/redis/queue-names.js";

const LOCK_TTL_MS = 30_000;

/**
 * Puts every project's sync schedule in Redis (or removes it when the config has none), from
 * one process at a time: several instances booting at once have been seen to leave duplicate
 * or missing schedules when they upsert concurrently. A process that finds the lock taken
 * leaves the work to the one holding it.
 */
export async function upsertSchedules(args: {
  readonly redis: RedisClient;
  readonly prefix: string;
  readonly queues: JobQueues;
  readonly projects: readonly ProjectSettings[];
  /** Scheduled jobs are removed like any other (without it a 5-minute cron keeps ~105k a year). */
  readonly retention: JobRetention;
  readonly logger: Logger;
}): Promise<"upserted" | "left-to-another-instance"> {
  const lockKey = keyspaceOf(args.redis, args.prefix).globalKey("lock", "schedules");
  const done = await withRedisLockIfFree(args.redis, lockKey, LOCK_TTL_MS, async (): Promise<"upserted"> => {
    // Each project's scheduler is its own queue's: written together, one round trip for all.
    // Settled before the lock is released, whatever fails.
    const outcomes = await Promise.allSettled(
      args.projects.map(async (project) => {
        const queue = args.queues.queueFor(project.id);
        if (!project.schedule) {
          await queue.removeJobScheduler(SYNC_SCHEDULER_ID);
          return;
        }
        await queue.upsertJobScheduler(
          SYNC_SCHEDULER_ID,
          { pattern: project.schedule.cron, ...(project.schedule.timezone ? { tz: project.schedule.timezone } : {}) },
          {
            name: "sync.run",
            data: JOB_CATALOG["sync.run"].schema.parse({ project: project.id, trigger: "schedule" }),
            opts: jobOptionsFor("sync.run", args.retention),
          },
        );
        args.logger.info({ project: project.id, cron: project.schedule.cron, tz: project.schedule.timezone }, "sync schedule upserted");
      }),
    );
    const failure = outcomes.find((outcome) => outcome.status === "rejected");
    if (failure) throw failure.reason;
    return "upserted";
  });
  if (done === undefined) args.logger.info("another instance is upserting the schedules");
  return done ?? "left-to-another-instance";
}
