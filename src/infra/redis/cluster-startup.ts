import type { ClusterNode, RedisOptions } from "ioredis";

/**
 * The startup nodes of `redis.cluster.nodes` and what they say about every node: ioredis opens
 * the nodes it discovers (CLUSTER SLOTS) with `redisOptions` only, never with a startup URL's
 * parts, so the credentials and TLS go there (the schema makes every node agree on them).
 * `rediss://` turns TLS on for every node; the nodes' certificates must then be valid for the
 * addresses the cluster announces.
 */
export function clusterStartupOf(nodes: readonly string[]): { readonly nodes: ClusterNode[]; readonly redisOptions: RedisOptions } {
  const urls = nodes.map((node) => new URL(node));
  const first = urls[0];
  if (!first) throw new Error("redis.cluster.nodes is empty (the settings schema forbids this)");
  const redisOptions: RedisOptions = {};
  if (first.username !== "") redisOptions.username = decodeURIComponent(first.username);
  if (first.password !== "") redisOptions.password = decodeURIComponent(first.password);
  if (first.protocol === "rediss:") redisOptions.tls = {};
  return {
    nodes: urls.map((url) => ({ host: url.hostname.replace(/^\[(.*)\]$/, "$1"), port: url.port === "" ? 6379 : Number(url.port) })),
    redisOptions,
  };
}
