import { ACTIVATION_QUEUE, queueNameOf } from "./queue-names.js";
import type { RedisClient } from "./redis-client.js";

/**
 * Every Redis key and BullMQ queue name pim-sync uses, built in one place from (prefix, owner,
 * kind, parts).
 *
 * On one Redis server the names are exactly those of the versions before cluster support, so an
 * existing deployment keeps its queues and state: `{prefix}:{kind}:{project}[:{part}...]` and the
 * queue `project-{id}`.
 *
 * On a Redis Cluster a key's slot is the hash of its first `{...}` (its hash tag), and a
 * multi-key operation (MULTI, a Lua script, every BullMQ script) must touch one slot. So:
 * - a project's queue is named `{project-67}` (BullMQ's keys are `{prefix}:{queue}:...`, so the
 *   whole queue lands in that slot) and each of the project's own keys carries the same tag in
 *   place of the bare id (`{prefix}:state:{project-67}:known`): whatever pim-sync does for one
 *   project stays in one slot, and different projects spread over the shards;
 * - the Activation queue and its keys share the tag `{activation}`;
 * - the keys of one shared upstream budget (its window, pause and slots, used together in one
 *   script) share the tag `{budget-<identity>}`: budgets spread over the shards, one per slot;
 * - global keys (the schedule locks) carry no tag: each is used alone, never with another key.
 * The prefix cannot hold a brace (the settings schema allows letters, digits, `.`, `_`, `-`), so
 * the tag is always the one placed here.
 */
export interface Keyspace {
  readonly prefix: string;
  readonly cluster: boolean;
  /** The BullMQ queue of a project. */
  projectQueue(project: number): string;
  /** A key of one project's own data: `projectKey(67, "state", "known")`. */
  projectKey(project: number, kind: string, ...parts: readonly string[]): string;
  /** The BullMQ queue of the Activation jobs. */
  readonly activationQueue: string;
  /** A key of the Activation jobs: `activationKey("idempotency", name, digest)`. */
  activationKey(kind: string, ...parts: readonly string[]): string;
  /**
   * The Activation state of one channel connection: `orders` (id → last delivered version),
   * `orders-listed` (id by when a pull last listed it), `offer-hashes` (offer key → hash last
   * accepted), `offers-accepted` (offer key by when). `offers` is the set of hashes older
   * versions kept (dropped on the next put).
   */
  activationStateKey(connection: string, what: "orders" | "orders-listed" | "offer-hashes" | "offers-accepted" | "offers"): string;
  /** A key of one shared upstream budget (src/infra/budgets/): `budgetKey("service-3f…", "window")`. */
  budgetKey(identity: string, what: "window" | "pause" | "urgent" | "slots"): string;
  /** A key used alone (never in a multi-key operation): `globalKey("lock", "schedules")`. */
  globalKey(...parts: readonly string[]): string;
}

export function createKeyspace(prefix: string, options: { readonly cluster: boolean }): Keyspace {
  const { cluster } = options;
  const join = (...parts: readonly string[]): string => [prefix, ...parts].join(":");
  const projectTag = (project: number): string => (cluster ? `{${queueNameOf(project)}}` : String(project));
  const activationTag = cluster ? `{${ACTIVATION_QUEUE}}` : ACTIVATION_QUEUE;
  return {
    prefix,
    cluster,
    projectQueue: (project) => (cluster ? `{${queueNameOf(project)}}` : queueNameOf(project)),
    projectKey: (project, kind, ...parts) => join(kind, projectTag(project), ...parts),
    activationQueue: activationTag,
    activationKey: (kind, ...parts) => join(kind, activationTag, ...parts),
    // Older names put the connection right after `activation`; the tag goes before it.
    activationStateKey: (connection, what) =>
      cluster ? join(ACTIVATION_QUEUE, activationTag, connection, what) : join(ACTIVATION_QUEUE, connection, what),
    budgetKey: (identity, what) => join("budget", cluster ? `{budget-${identity}}` : identity, what),
    globalKey: (...parts) => join(...parts),
  };
}

/** The keyspace of a connection: tagged exactly when it is a cluster's. */
export function keyspaceOf(redis: RedisClient, prefix: string): Keyspace {
  return createKeyspace(prefix, { cluster: redis.isCluster });
}
