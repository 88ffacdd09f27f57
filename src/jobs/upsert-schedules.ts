import { keyspaceOf } from "../redis/keyspace.js";
import type { RedisClient } from "../redis/redis-client.js";
import type { Logger } from "pino";
import type { ProjectSettings } from "../settings/settings-schema.js";
import type { JobQueues } from "./job-queues.js";
import { JOB_CATALOG } from "./job-catalog.js";
import { jobOptionsFor, type JobRetention } from "./job-options.js";
import { SYNC_SCHEDULER_ID } from "../redis/queue-names.js";

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
  const owner = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  const acquired = await args.redis.set(lockKey, owner, "PX", LOCK_TTL_MS, "NX");
  if (acquired !== "OK") {
    args.logger.info("another instance is upserting the schedules");
    return "left-to-another-instance";
  }
  try {
    for (const project of args.projects) {
      const queue = args.queues.queueFor(project.id);
      if (!project.schedule) {
        await queue.removeJobScheduler(SYNC_SCHEDULER_ID);
        continue;
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
    }
    return "upserted";
  } finally {
    // Release only our own lock (compare-and-delete).
    await args.redis.eval(
      "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0",
      1,
      lockKey,
      owner,
    );
  }
}
