import type { RedisSettings } from "../../settings/settings-schema.js";
import { redactRedisUrl } from "./redact-redis-url.js";

/** Where the config points pim-sync's Redis, as the schema guarantees it: one server or a cluster. */
export type RedisTarget =
  | { readonly kind: "server"; readonly url: string }
  | { readonly kind: "cluster"; readonly nodes: readonly string[]; readonly failoverWaitMs: number };

export function redisTargetOf(settings: RedisSettings): RedisTarget {
  if (settings.cluster) return { kind: "cluster", nodes: settings.cluster.nodes, failoverWaitMs: settings.cluster.failover_wait_ms };
  if (settings.url !== undefined) return { kind: "server", url: settings.url };
  throw new Error("redis needs `url` or `cluster` (the settings schema enforces this)");
}

/** The target for logs and messages, credentials redacted (redact-redis-url.ts). */
export function describeRedisTarget(settings: RedisSettings): string {
  const target = redisTargetOf(settings);
  return target.kind === "server" ? redactRedisUrl(target.url) : `the cluster of ${target.nodes.map(redactRedisUrl).join(", ")}`;
}
