/**
 * The base name of a project's queue (on a cluster it is wrapped in a hash tag, see
 * src/infra/redis/keyspace.ts). One BullMQ queue per project, with a global concurrency of 1: a project's sync and its
 * add-options jobs run one at a time across every worker process, which is what guarantees they
 * never interleave. Projects run in parallel.
 */
export function queueNameOf(project: number): string {
  return `project-${project}`;
}

/**
 * The queue of every Activation job (see activation-queue.ts); also the first part of their refs
 * (`activation/<id>`). On a cluster the queue is `{activation}` (src/infra/redis/keyspace.ts).
 */
export const ACTIVATION_QUEUE = "activation";

/** Sync jobs of a project share one deduplication id: one running, at most one more waiting. */
export function syncDeduplicationId(project: number): string {
  return `sync-${project}`;
}

export const SYNC_SCHEDULER_ID = "sync-schedule";

/**
 * A project's second scheduler, there only while its PIM event subscription cannot be counted on
 * (suspended, revoked or silent): whole syncs every `pim.events.fallback_interval_ms`.
 */
export const FALLBACK_SCHEDULER_ID = "pim-events-fallback";

/** Targeted syncs of a project's PIM events: one running, at most one more waiting. */
export function eventSyncDeduplicationId(project: number): string {
  return `pim-events-${project}`;
}

/** Pulls of one channel connection: one running, at most one more waiting. */
export function pullDeduplicationId(connection: string): string {
  return `activation-pull-${connection}`;
}
