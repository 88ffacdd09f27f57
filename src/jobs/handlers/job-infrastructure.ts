import type { Queue } from "bullmq";
import type { Keyspace } from "../../infra/redis/keyspace.js";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import type { Settings } from "../../settings/settings-schema.js";

/**
 * What a worker hands every catalog entry's `deps` to build what its handler needs (its stores,
 * a view of its queue): the worker's Redis connection and key prefix, its settings, and the
 * project queues. Built upon once per worker and entry, when the entry's first job runs.
 */
export interface JobInfrastructure {
  readonly redis: RedisClient;
  readonly prefix: string;
  readonly keyspace: Keyspace;
  readonly settings: Settings;
  /** A project's queue (to look at the jobs waiting behind one); only in a worker of project queues. */
  queueFor(project: number): Queue;
}
