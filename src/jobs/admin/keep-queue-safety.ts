import type { RedisClient } from "../../infra/redis/redis-client.js";
import type { Logger } from "pino";
import type { ProjectSettings } from "../../settings/settings-schema.js";
import type { JobRetention } from "../queues/job-options.js";
import type { JobQueues } from "../queues/job-queues.js";
import { SYNC_SCHEDULER_ID } from "../../infra/redis/queue-names.js";
import { upsertSchedules } from "../schedules/upsert-schedules.js";

export interface QueueSafetyKeeper {
  /** Checks once now (also what the reconnection and the timer run); never throws. */
  check(): Promise<void>;
  stop(): void;
}

/**
 * Keeps the two things a project's safety rests on in Redis: the queue's global concurrency of
 * 1 (no two jobs of a project at once, across workers) and the sync job scheduler. Both live
 * only in Redis, written at start; a Redis that restarts without persistence comes back empty,
 * and BullMQ does not write them again. So they are checked whenever the connection becomes
 * ready again and every `intervalMs`, and restored when missing. A scheduler whose pattern or
 * time zone differs from this worker's config (another worker's config, or a hand edit) is
 * replaced by the config's, at warn: the rule for two config versions running at once is in
 * docs/worker.md (Schedules).
 */
export function keepQueueSafety(args: {
  readonly connection: RedisClient;
  readonly prefix: string;
  readonly queues: JobQueues;
  readonly projects: readonly ProjectSettings[];
  readonly retention: JobRetention;
  readonly intervalMs: number;
  readonly logger: Logger;
  /** Further queues' checks (the Activation queue), run with the projects'. */
  readonly alsoCheck?: readonly ((warn: (what: string, details?: Readonly<Record<string, unknown>>) => void) => Promise<void>)[];
}): QueueSafetyKeeper {
  const log = args.logger.child({ component: "queue-safety" });
  let running: Promise<void> | undefined;

  async function checkOnce(): Promise<void> {
    let schedulesWrong = false;
    for (const project of args.projects) {
      const queue = args.queues.queueFor(project.id);
      const concurrency = await queue.getGlobalConcurrency();
      if (concurrency !== 1) {
        await queue.setGlobalConcurrency(1);
        log.warn({ project: project.id, found: concurrency }, "queue global concurrency was missing; set to 1 again");
      }
      const scheduler = await queue.getJobScheduler(SYNC_SCHEDULER_ID);
      const found = scheduler ? { cron: scheduler.pattern ?? null, timezone: scheduler.tz ?? null, every: scheduler.every ?? null } : null;
      const wanted = project.schedule ? { cron: project.schedule.cron, timezone: project.schedule.timezone ?? null, every: null } : null;
      if (found === null && wanted === null) continue;
      if (found === null) {
        log.warn({ project: project.id }, "a project's sync schedule was missing from Redis; upserting the schedules again");
        schedulesWrong = true;
      } else if (wanted === null || found.cron !== wanted.cron || found.timezone !== wanted.timezone || found.every !== null) {
        log.warn({ project: project.id, found, wanted }, "a project's sync schedule in Redis differs from the config; replacing it");
        schedulesWrong = true;
      }
    }
    if (schedulesWrong) {
      await upsertSchedules({
        redis: args.connection,
        prefix: args.prefix,
        queues: args.queues,
        projects: args.projects,
        retention: args.retention,
        logger: args.logger,
      });
    }
    for (const extra of args.alsoCheck ?? []) await extra((what, details) => log.warn(details ?? {}, what));
  }

  function check(): Promise<void> {
    // One check at a time: a reconnection during a timer's check does not start a second one.
    running ??= checkOnce()
      .catch((error: unknown) => log.warn({ err: error }, "queue safety check failed; retried at the next one"))
      .finally(() => (running = undefined));
    return running;
  }

  const onReady = (): void => void check();
  args.connection.on("ready", onReady);
  const timer = setInterval(onReady, args.intervalMs);
  timer.unref();
  return {
    check,
    stop() {
      clearInterval(timer);
      args.connection.off("ready", onReady);
    },
  };
}
