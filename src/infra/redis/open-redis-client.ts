import { Cluster, Redis } from "ioredis";
import type { RedisSettings } from "../../settings/settings-schema.js";
import { clusterStartupOf } from "./cluster-startup.js";
import type { RedisClient } from "./redis-client.js";
import { redisOptionsFor } from "./redis-options.js";
import { redisTargetOf } from "./redis-target.js";

/** ioredis' delay before retrying a command that met CLUSTERDOWN, TRYAGAIN or a closed node (its default, kept). */
const CLUSTER_RETRY_DELAY_MS = 100;

/**
 * While a master fails over (dead, then flagged failing, then its replica elected: about
 * cluster-node-timeout plus a second or two), ioredis retries a command that meets MOVED, a
 * closed connection or CLUSTERDOWN, but only `maxRedirections` times (16 by default): about a
 * second, after which a job's write in flight failed and its attempt with it (seen as "write to
 * 'color' failed: Connection is closed." and a 20 s retry backoff). A worker's commands wait
 * through a failover as they wait through a single Redis' outage. A MOVED is retried at once and
 * then meets the dead master (a closed connection, retried after 100 ms), so at most two
 * redirections pass per 100 ms: this many make a command retry for at least `waitMs`.
 */
function failoverRedirections(waitMs: number): number {
  return Math.ceil((2 * waitMs) / CLUSTER_RETRY_DELAY_MS);
}

/**
 * A new (not yet connected, for `command`) connection to the configured Redis: an ioredis
 * `Redis` for `redis.url`, an ioredis `Cluster` for `redis.cluster`, with the options of its
 * role (redis-options.ts) and `redis.password` when given. For a cluster:
 * - the role's options become every node's `redisOptions` (with the credentials and TLS of the
 *   startup URLs), so `maxRetriesPerRequest: null` reaches BullMQ's blocking connections;
 * - `clusterRetryStrategy` gets the role's reconnect delays: it runs when no node answers (a
 *   node's own connection does not reconnect in ioredis; the cluster reconnects as a whole);
 * - `enableReadyCheck` (the default, kept): "ready" only once CLUSTER INFO says the cluster is
 *   ok, so a command never starts on a cluster still assigning its slots;
 * - `lazyConnect` for commands, as for one server: connectCommandRedis bounds the wait;
 * - reads go to masters (ioredis' default `scaleReads`): a replica may lag behind a job's write;
 * - a worker's commands keep retrying through a master's failover (`redis.cluster.failover_wait_ms`),
 *   a command's (CLI) give up after ioredis' default redirections, as they do on a single Redis.
 * `natMap` and `dnsLookup` are not set: nodes must be reachable at the addresses they announce.
 */
export function openRedisClient(
  settings: RedisSettings,
  role: "command" | "worker",
  args: { readonly retryDelayMs: (attempt: number) => number | null },
): RedisClient {
  const roleOptions = redisOptionsFor(role, { connectTimeoutMs: settings.connect_timeout_ms, retryDelayMs: args.retryDelayMs });
  // As an option, so AUTH gets it as written: a URL would have to encode it (the schema refuses both).
  // Named, so an operator (and a test) can count a worker's connections in CLIENT LIST.
  const named = role === "worker" ? { ...roleOptions, connectionName: `${settings.prefix}:worker` } : roleOptions;
  const options = settings.password === undefined ? named : { ...named, password: settings.password };
  const target = redisTargetOf(settings);
  if (target.kind === "server") return new Redis(target.url, options);
  const startup = clusterStartupOf(target.nodes);
  const { lazyConnect, enableOfflineQueue, ...nodeOptions } = options;
  // Not per node: ioredis replaces a node's retryStrategy (the cluster reconnects as a whole).
  delete nodeOptions.retryStrategy;
  return new Cluster(startup.nodes, {
    redisOptions: { ...nodeOptions, ...startup.redisOptions },
    clusterRetryStrategy: (attempt) => args.retryDelayMs(attempt),
    ...(role === "worker" ? { maxRedirections: failoverRedirections(target.failoverWaitMs) } : {}),
    enableReadyCheck: true,
    ...(lazyConnect === undefined ? {} : { lazyConnect }),
    ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
  });
}
