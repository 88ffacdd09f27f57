import { createBullmqConnection } from "../jobs/create-bullmq-connection.js";
import { createActivationQueue, type ActivationQueue } from "../jobs/activation-queue.js";
import { createJobQueues, type JobQueues } from "../jobs/job-queues.js";
import type { Settings } from "../settings/settings-schema.js";
import { UsageError } from "./usage-error.js";

/** The queues, for commands that enqueue or inspect jobs; they need `redis` in the config. */
export function openJobQueues(settings: Settings, help: string): { queues: JobQueues; activation: ActivationQueue | null; close(): Promise<void> } {
  if (!settings.redis) throw new UsageError("this command needs `redis` in the config (jobs live in Redis)", help);
  const connection = createBullmqConnection(settings.redis.url, "producer");
  const queues = createJobQueues({ connection, prefix: settings.redis.prefix, projects: settings.projects.map((p) => p.id), retention: settings.worker });
  // The Activation queue, when configured, so that jobs list/show/retry see its jobs too.
  const activation = settings.activation ? createActivationQueue({ connection, prefix: settings.redis.prefix, retention: settings.worker }) : null;
  return {
    queues,
    activation,
    async close() {
      await queues.close();
      await activation?.close();
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
