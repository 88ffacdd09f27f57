import { z } from "zod";
import { clusterNodeProblems } from "./cluster-node-problems.js";

/** `redis` in the configuration file: where the state and the queues live (docs/configuration.md). */

const redisUrl = z.string().regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL");

/** False for text that is no URL at all (the URL's own rules report that). */
function hasUrlPassword(url: string | undefined): boolean {
  if (url === undefined || !URL.canParse(url)) return false;
  return new URL(url).password !== "";
}

/** `redis.cluster`: a Redis Cluster, reached through any of these startup nodes. */
export const redisClusterSchema = z.strictObject({
  nodes: z
    .array(redisUrl)
    .min(1, "at least one startup node is needed")
    .describe(
      "a Redis Cluster instead of one Redis (give `url` or `cluster`, not both): startup nodes as `redis://`/`rediss://` URLs, the others are discovered; every node with the same scheme and user/password, no database path; passwords shown as `***` everywhere",
    ),
  failover_wait_ms: z
    .int()
    .min(1_000)
    .max(600_000)
    .default(30_000)
    .describe(
      "how long (at least) a worker's Redis command keeps retrying while a master of the cluster fails over to its replica, before it fails: more than the cluster's cluster-node-timeout plus a few seconds for the election (docs/redis-cluster.md). CLI commands do not wait for it.",
    ),
});

/** The prefix of every Redis key; its default is read by redisPrefixOf too (a Redis given without `redis` settings). */
export const redisPrefixSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.-]+$/, "letters, digits, '.', '_' and '-' only")
  .default("pim-sync")
  .describe("prefix of every Redis key (letters, digits, `.`, `_`, `-`)");

/**
 * One Redis (`url`) or a Redis Cluster (`cluster.nodes`), exactly one of the two. The nodes of
 * a cluster share one scheme and one user/password: ioredis connects to the nodes it discovers
 * (not listed here) with one set of options (see src/infra/redis/cluster-options.ts).
 */
export const redisSchema = z
  .strictObject({
    url: redisUrl
      .optional()
      .describe(
        "one Redis for the state and the worker's queues (`redis://` or `rediss://`); without `redis`, `sync --once` keeps state in files",
      ),
    cluster: redisClusterSchema.optional(),
    /**
     * Kept out of the URL on purpose: a password from the environment written into
     * `redis://:${REDIS_PASSWORD}@...` breaks the URL as soon as it holds `@`, `/`, `#`, `?` or
     * `%`; here it is sent to AUTH as it is.
     */
    password: z
      .string()
      .min(1, "must not be empty")
      .optional()
      .describe(
        "the Redis password (AUTH), sent as written: any character is fine (`@`, `/`, `#` would break a URL); give it here or in the URL, not both",
      ),
    prefix: redisPrefixSchema,
    connect_timeout_ms: z
      .int()
      .min(100)
      .default(5_000)
      .describe(
        "a command that needs Redis gives up after this long without an answer (exit 1); each connection attempt's bound; the worker keeps trying",
      ),
  })
  .superRefine((redis, ctx) => {
    if (redis.url !== undefined && redis.cluster !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["cluster"],
        message: "give either `redis.url` (one Redis) or `redis.cluster` (a Redis Cluster), not both",
      });
    if (redis.url === undefined && redis.cluster === undefined)
      ctx.addIssue({ code: "custom", path: ["url"], message: "needed (or `redis.cluster.nodes` for a Redis Cluster)" });
    if (redis.cluster)
      for (const problem of clusterNodeProblems(redis.cluster.nodes))
        ctx.addIssue({ code: "custom", path: ["cluster", "nodes", problem.index], message: problem.message });
    if (redis.password !== undefined && [redis.url, ...(redis.cluster?.nodes ?? [])].some(hasUrlPassword)) {
      ctx.addIssue({ code: "custom", path: ["password"], message: "the Redis URL carries a password too: give it in one place only" });
    }
  });
