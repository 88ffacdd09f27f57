import { keyspaceOf } from "../../infra/redis/keyspace.js";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import type { Logger } from "pino";
import type { ActivationQueue } from "../queues/activation-queue.js";
import { JOB_CATALOG } from "../catalog/job-catalog.js";
import { withRedisLockIfFree } from "../queues/redis-lock.js";

const LOCK_TTL_MS = 30_000;
export const ACTIVATION_SCHEDULER_PREFIX = "activation-pull:";

/**
 * One job scheduler per connection on the activation queue (`activation-pull:<connection>`),
 * from one process at a time (as the sync schedules, see upsert-schedules.ts). Schedulers of
 * connections no longer pulled, or all of them without a schedule, are removed.
 */
export async function upsertActivationSchedules(args: {
  readonly redis: RedisClient;
  readonly prefix: string;
  readonly queue: ActivationQueue;
  readonly cron: string | undefined;
  readonly connections: readonly string[];
  readonly logger: Logger;
}): Promise<"upserted" | "left-to-another-instance"> {
  const lockKey = keyspaceOf(args.redis, args.prefix).globalKey("lock", "activation-schedules");
  const done = await withRedisLockIfFree(args.redis, lockKey, LOCK_TTL_MS, async (): Promise<"upserted"> => {
    const wanted = new Set(args.cron === undefined ? [] : args.connections);
    for (const scheduler of await args.queue.queue.getJobSchedulers(0, -1)) {
      const id = scheduler.key;
      if (id.startsWith(ACTIVATION_SCHEDULER_PREFIX) && !wanted.has(id.slice(ACTIVATION_SCHEDULER_PREFIX.length)))
        await args.queue.queue.removeJobScheduler(id);
    }
    if (args.cron === undefined) return "upserted";
    const entry = JOB_CATALOG["activation.orders.pull"];
    for (const connection of wanted) {
      await args.queue.queue.upsertJobScheduler(
        `${ACTIVATION_SCHEDULER_PREFIX}${connection}`,
        { pattern: args.cron },
        {
          name: "activation.orders.pull",
          data: entry.schema.parse({ connection, trigger: "schedule" }),
          opts: args.queue.jobOptions("activation.orders.pull"),
        },
      );
    }
    args.logger.info({ connections: [...wanted], cron: args.cron }, "activation pull schedules upserted");
    return "upserted";
  });
  return done ?? "left-to-another-instance";
}
