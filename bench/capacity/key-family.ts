/**
 * The family a Redis key of pim-sync belongs to, for the capacity figures: what a project keeps
 * (its last-written state, history, schedules…) apart from what grows with its jobs and events.
 * Keys are those of `src/infra/redis/keyspace.ts` (standalone or cluster spelling) and BullMQ's under
 * the project's queue.
 */
export const KEY_FAMILIES = [
  "state",
  "history",
  "held",
  "job-status",
  "idempotency",
  "pim-events:dedupe",
  "pim-events:other",
  "queue:jobs",
  "queue:schedules",
  "queue:events-stream",
  "queue:other",
  "budget",
  "other",
] as const;
export type KeyFamily = (typeof KEY_FAMILIES)[number];

/** BullMQ's own keys of a queue (after `<prefix>:<queue>:`); anything else there is a job's (`<id>`, `<id>:logs`…). */
const QUEUE_STRUCTURE = new Set([
  "meta",
  "id",
  "wait",
  "paused",
  "active",
  "delayed",
  "prioritized",
  "pc",
  "completed",
  "failed",
  "stalled",
  "stalled-check",
  "limiter",
  "marker",
  "de",
  "waiting-children",
  "events",
  "repeat",
  "metrics",
]);

export function familyOfKey(prefix: string, key: string): KeyFamily {
  if (!key.startsWith(`${prefix}:`)) return "other";
  const parts = key.slice(prefix.length + 1).split(":");
  const [first, , third] = parts;
  if (first === undefined) return "other";
  if (/^\{?project-\d+\}?$/.test(first)) {
    const rest = parts[1];
    if (rest === undefined) return "queue:other";
    if (rest === "repeat") return "queue:schedules";
    if (rest === "events") return "queue:events-stream";
    return QUEUE_STRUCTURE.has(rest) ? "queue:other" : "queue:jobs";
  }
  switch (first) {
    case "state":
      return "state";
    case "history":
      return "history";
    case "held":
      return "held";
    case "job-status":
      return "job-status";
    case "idempotency":
      return "idempotency";
    case "budget":
      return "budget";
    case "pim-events":
      return third === "seen-on" || third === "seen" ? "pim-events:dedupe" : "pim-events:other";
    default:
      return "other";
  }
}
