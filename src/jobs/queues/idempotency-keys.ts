import { createHash } from "node:crypto";
import type { JobsOptions, Queue } from "bullmq";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import { contentHash } from "../../core/json/canonical-json.js";
import { IdempotencyKeyConflict } from "./idempotency-key-conflict.js";

/**
 * Claims a key for a job, atomically (one script): a new key is stored with the body's hash and
 * the job id, and marked `added` only once the job is in the queue (`confirm`). So:
 * - a key seen with another body is a conflict, whatever became of its job;
 * - a key whose job was added is a duplicate for as long as the key lives, even after the job
 *   itself was removed by its retention: a late redelivery never runs the request again;
 * - a key claimed but never confirmed (the producer failed between claim and add) is claimed
 *   again by the next delivery, which adds the job under the same id (BullMQ does not add an id
 *   twice, so concurrent deliveries still make one job).
 * Keys written by older versions (a plain string holding the job id) count as duplicates.
 */
const CLAIM = `
if redis.call('TYPE', KEYS[1])['ok'] == 'string' then return {'duplicate', redis.call('GET', KEYS[1])} end
local stored = redis.call('HMGET', KEYS[1], 'body', 'job', 'added')
if not stored[1] then
  redis.call('HSET', KEYS[1], 'body', ARGV[1], 'job', ARGV[2], 'added', '0')
  redis.call('EXPIRE', KEYS[1], ARGV[3])
  return {'new', ARGV[2]}
end
if stored[1] ~= ARGV[1] then return {'conflict', stored[2]} end
if stored[3] == '1' then return {'duplicate', stored[2]} end
return {'new', stored[2]}
`;

/** 1 for the delivery that marks the key `added` first, 0 for any later one. */
const CONFIRM = `
if redis.call('HGET', KEYS[1], 'added') == '0' then
  redis.call('HSET', KEYS[1], 'added', '1')
  return 1
end
return 0
`;

export interface IdempotencyClaim {
  readonly outcome: "new" | "duplicate" | "conflict";
  /** The job the key belongs to (for `new`, the id to add the job under). */
  readonly jobId: string;
}

export async function claimIdempotencyKey(
  redis: RedisClient,
  key: string,
  args: { readonly bodyHash: string; readonly jobId: string; readonly ttlSeconds: number },
): Promise<IdempotencyClaim> {
  const answer = (await redis.eval(CLAIM, 1, key, args.bodyHash, args.jobId, args.ttlSeconds)) as unknown;
  if (!Array.isArray(answer) || typeof answer[0] !== "string" || typeof answer[1] !== "string")
    throw new Error(`unexpected answer from the idempotency script: ${JSON.stringify(answer)}`);
  const outcome = answer[0];
  if (outcome !== "new" && outcome !== "duplicate" && outcome !== "conflict")
    throw new Error(`unexpected idempotency outcome '${outcome}'`);
  return { outcome, jobId: answer[1] };
}

/** Marks the key's job as added; true for the first delivery to do so. */
export async function confirmIdempotencyKey(redis: RedisClient, key: string): Promise<boolean> {
  return (await redis.eval(CONFIRM, 1, key)) === 1;
}

/**
 * Adds a job once per Idempotency-Key (`keyOf` names its Redis key, see src/infra/redis/keyspace.ts,
 * so keys of different queues or projects stay apart): the key is claimed with the hash of the
 * job's canonical data before the job is added, and the job id derives from the key. A key
 * reused with other data throws IdempotencyKeyConflict.
 */
export async function addJobOnce(args: {
  readonly redis: RedisClient;
  /** The Redis key of a key's digest; on a cluster in the slot of the job's queue. */
  readonly keyOf: (digest: string) => string;
  readonly idempotencyKey: string;
  readonly queue: Queue;
  readonly name: string;
  readonly data: unknown;
  readonly options: JobsOptions;
  /** Job ids of this kind of job start with it (`add-`, `act-`). */
  readonly jobIdPrefix: string;
  readonly ttlSeconds: number;
  /** How `jobs list` names a job of this queue. */
  readonly refOf: (jobId: string) => string;
}): Promise<{ readonly jobId: string; readonly status: "queued" | "duplicate" }> {
  const digest = createHash("sha256").update(args.idempotencyKey).digest("hex").slice(0, 32);
  const key = args.keyOf(digest);
  const claim = await claimIdempotencyKey(args.redis, key, {
    bodyHash: contentHash(args.data),
    jobId: `${args.jobIdPrefix}${digest}`,
    ttlSeconds: args.ttlSeconds,
  });
  if (claim.outcome === "conflict") throw new IdempotencyKeyConflict(args.refOf(claim.jobId));
  if (claim.outcome === "duplicate") return { jobId: claim.jobId, status: "duplicate" };
  // BullMQ never adds a job id twice: concurrent deliveries that both claimed make one job.
  const job = await args.queue.add(args.name, args.data, { ...args.options, jobId: claim.jobId });
  const first = await confirmIdempotencyKey(args.redis, key);
  return { jobId: job.id ?? claim.jobId, status: first ? "queued" : "duplicate" };
}
