import type { Cluster, Redis } from "ioredis";

/**
 * A connection to pim-sync's Redis: one server (`redis.url`) or a Redis Cluster
 * (`redis.cluster`). Both speak the same commands; what differs is where keys may go together
 * (see keyspace.ts).
 */
export type RedisClient = Redis | Cluster;
