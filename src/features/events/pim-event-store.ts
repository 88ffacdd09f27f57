import { z } from "zod";
import type { Keyspace } from "../../infra/redis/keyspace.js";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import { redisScript } from "../../infra/redis/redis-script.js";

/**
 * A redelivery within this long of the first delivery is a duplicate (the platform retries for far
 * less). Ids are kept by UTC day of arrival, one hash per project and day, each kept until this
 * long after its day ends: a duplicate is seen for 7 to 8 days, at a few dozen bytes an event and
 * no key of its own (a key per event cost ~130 bytes and a key a week: docs/capacity.md).
 */
export const SEEN_DAYS = 7;
const DAY_MS = 86_400_000;
/** Recent events kept for inspection, per project. */
const LOG_LENGTH = 1_000;

/**
 * Records an event once per id, in one step: the id in its arrival day's hash, its target in the
 * project's pending set (with a new sequence number, so a target that changes again while a sync
 * reads it stays pending), the event in the project's log, and the time and subject last seen. A
 * duplicate (its id in any day's hash of the window, or under the one-key-per-event mark of the
 * versions before, kept 7 days from their last write) only refreshes the time: the platform is talking.
 */
const RECORD = redisScript(`
redis.call('SET', KEYS[5], ARGV[4])
if redis.call('EXISTS', KEYS[7]) == 1 then return 0 end
for i = 8, #KEYS do
  if redis.call('HEXISTS', KEYS[i], ARGV[7]) == 1 then return 0 end
end
if redis.call('HSETNX', KEYS[1], ARGV[7], '') == 0 then return 0 end
redis.call('EXPIREAT', KEYS[1], ARGV[1])
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[2], ARGV[2], redis.call('INCR', KEYS[3]))
end
redis.call('LPUSH', KEYS[4], ARGV[3])
redis.call('LTRIM', KEYS[4], 0, tonumber(ARGV[6]) - 1)
if ARGV[5] ~= '' then redis.call('SET', KEYS[6], ARGV[5]) end
return 1
`);

/**
 * Targeted syncs a target may fail (a failure a retry could get past) before it is given up: the
 * scheduled sync is the safety net, and one collection that cannot be written must not keep
 * every later event job failing and re-reading.
 */
export const TARGET_ATTEMPTS = 3;

/**
 * Removes the pending targets a sync covered, unless a later event bumped them meanwhile; their
 * failed attempts are forgotten either way (a later event is a new change, with attempts of its own).
 */
const SETTLE = redisScript(`
local removed = 0
for i = 1, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    redis.call('HDEL', KEYS[1], ARGV[i])
    removed = removed + 1
  end
  redis.call('HDEL', KEYS[2], ARGV[i])
end
return removed
`);

/** Counts one failed attempt for each target; returns those that reached ARGV[1] attempts. */
const FAILED = redisScript(`
local spent = {}
for i = 2, #ARGV do
  if redis.call('HINCRBY', KEYS[1], ARGV[i], 1) >= tonumber(ARGV[1]) then spent[#spent + 1] = ARGV[i] end
end
redis.call('PEXPIRE', KEYS[1], 604800000)
return spent
`);

export const recordedEventSchema = z.strictObject({
  id: z.string(),
  type: z.string(),
  subject: z.string().nullable(),
  correlationId: z.string().nullable(),
  /** The pending-set field of its target, or null for an event that names none. */
  target: z.string().nullable(),
  /** Why it names no target. */
  ignored: z.string().nullable(),
  receivedAt: z.number(),
});

export type RecordedEvent = z.output<typeof recordedEventSchema>;

/** Pending targets as read: field → sequence number, handed back to `settle`. */
export type PendingTargets = ReadonlyMap<string, string>;

export interface PimEventStore {
  /** True for a new event, false for a duplicate (same id). */
  record(project: number, event: RecordedEvent): Promise<boolean>;
  pending(project: number): Promise<PendingTargets>;
  /** Drops the targets read by `pending` whose sequence is unchanged. */
  settle(project: number, taken: PendingTargets): Promise<void>;
  /**
   * Counts a failed targeted sync for each of these pending-set keys; returns the keys that have
   * now failed TARGET_ATTEMPTS times (the caller gives them up by settling them).
   */
  failed(project: number, keys: readonly string[]): Promise<string[]>;
  /** When the project's last event (duplicates included) arrived, in ms, or null. */
  lastEventAt(project: number): Promise<number | null>;
  /** The most recent events, newest first. */
  recent(project: number, count: number): Promise<RecordedEvent[]>;
}

export function createPimEventStore(redis: RedisClient, keyspace: Keyspace): PimEventStore {
  const key = (project: number, ...parts: string[]): string => keyspace.projectKey(project, "pim-events", ...parts);
  return {
    async record(project, event) {
      const day = Math.floor(event.receivedAt / DAY_MS);
      // The next day too: another process whose clock is a little ahead may have recorded it there.
      const otherDays = [day + 1, ...Array.from({ length: SEEN_DAYS }, (_, back) => day - back - 1)].map((other) =>
        key(project, "seen-on", String(other)),
      );
      const keys = [
        key(project, "seen-on", String(day)),
        key(project, "pending"),
        key(project, "seq"),
        key(project, "log"),
        key(project, "last"),
        key(project, "subject"),
        key(project, "seen", event.id),
        ...otherDays,
      ];
      const added = await RECORD(redis, keys, [
        Math.ceil(((day + 1) * DAY_MS) / 1000) + SEEN_DAYS * 86_400,
        event.target ?? "",
        JSON.stringify(event),
        event.receivedAt,
        event.subject ?? "",
        LOG_LENGTH,
        event.id,
      ]);
      return added === 1;
    },
    async pending(project) {
      return new Map(Object.entries(await redis.hgetall(key(project, "pending"))));
    },
    async settle(project, taken) {
      if (taken.size === 0) return;
      await SETTLE(redis, [key(project, "pending"), key(project, "attempts")], [...taken].flat());
    },
    async failed(project, keys) {
      if (keys.length === 0) return [];
      const spent = await FAILED(redis, [key(project, "attempts")], [TARGET_ATTEMPTS, ...keys]);
      return Array.isArray(spent) ? spent.map(String) : [];
    },
    async lastEventAt(project) {
      const raw = await redis.get(key(project, "last"));
      const at = raw === null ? Number.NaN : Number(raw);
      return Number.isFinite(at) ? at : null;
    },
    async recent(project, count) {
      const lines = await redis.lrange(key(project, "log"), 0, count - 1);
      // Lines written by another version may not parse: they are left out, not thrown on.
      return lines.flatMap((line) => {
        try {
          const parsed = recordedEventSchema.safeParse(JSON.parse(line));
          return parsed.success ? [parsed.data] : [];
        } catch {
          return [];
        }
      });
    },
  };
}
