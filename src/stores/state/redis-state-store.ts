import { randomBytes } from "node:crypto";
import { keyspaceOf } from "../../infra/redis/keyspace.js";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import type { ServiceLabels, ServiceOption } from "../../core/domain/option-collection.js";
import { decodeLabels, encodeAddition, encodeLabels, parseAddition } from "./labels-codec.js";
import type { StateStore } from "./state-store.js";
import { DELETION_RECORD_MS } from "../../core/reconcile/deletion-guard.js";
import { redisScript } from "../../infra/redis/redis-script.js";

/**
 * KEYS: a collection's deletion records. ARGV: the window (ms). Drops the records older than the
 * window by Redis' clock and sums the counts of the rest (members `<ms>:<count>:<nonce>`).
 */
const DELETED_WITHIN = redisScript(`
local t = redis.call('TIME')
local since = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. since)
local sum = 0
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], since, '+inf')) do
  local count = tonumber(string.match(member, '^[^:]*:([^:]*):'))
  if count then sum = sum + count end
end
return sum
`);

/**
 * KEYS: a collection's deletion records. ARGV: the count, a nonce, how long records outlive the
 * last deletion (ms). Records the deletion at Redis' clock.
 */
const RECORD_DELETED = redisScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[1] .. ':' .. ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return now
`);

/** HSET arguments per round trip: keeps single commands small on 20k-option collections. */
const HSET_CHUNK = 1000;

/**
 * One Redis hash per collection (option name → labels JSON) and one set per project listing the
 * collections that have state, so an empty collection still counts as "known".
 * Keys (src/infra/redis/keyspace.ts, on one server): `{prefix}:state:{project}:c:{collection}` and
 * `{prefix}:state:{project}:known`.
 */
/** ioredis resolves a transaction even when a command inside it failed: surface such errors. */
async function execOrThrow(multi: ReturnType<RedisClient["multi"]>, what: string): Promise<void> {
  const results = await multi.exec();
  const failed = results?.find(([error]) => error !== null)?.[0];
  if (failed) throw new Error(`state ${what} failed: ${failed.message}`, { cause: failed });
  if (results === null) throw new Error(`state ${what} failed: the transaction was discarded`);
}

export function createRedisStateStore(redis: RedisClient, prefix: string, options: { readonly ownsConnection?: boolean } = {}): StateStore {
  // A transaction writes a collection's hash and the project's `known` set: one slot on a cluster.
  const keyspace = keyspaceOf(redis, prefix);
  const collectionKey = (project: number, collection: string): string => keyspace.projectKey(project, "state", "c", collection);
  const knownKey = (project: number): string => keyspace.projectKey(project, "state", "known");
  const addedKey = (project: number, collection: string): string => keyspace.projectKey(project, "state", "a", collection);
  // A sorted set per collection: member `{atMs}:{count}:{nonce}`, scored by the time.
  const deletedKey = (project: number, collection: string): string => keyspace.projectKey(project, "state", "d", collection);

  async function hsetChunks(key: string, options: readonly ServiceOption[], multi: ReturnType<RedisClient["multi"]>): Promise<void> {
    for (let i = 0; i < options.length; i += HSET_CHUNK) {
      const args: string[] = [];
      for (const option of options.slice(i, i + HSET_CHUNK)) args.push(option.name, encodeLabels(option.label));
      multi.hset(key, ...args);
    }
  }

  return {
    async read(project, collection) {
      const [known, entries] = await Promise.all([
        redis.sismember(knownKey(project), collection),
        redis.hgetall(collectionKey(project, collection)),
      ]);
      if (known === 0) return null;
      const out = new Map<string, ServiceLabels>();
      for (const [name, text] of Object.entries(entries))
        out.set(name, decodeLabels(text, `${collectionKey(project, collection)}#${name}`));
      return out;
    },
    async readSome(project, collection, wanted) {
      const key = collectionKey(project, collection);
      // The names alone (no labels to move or decode), then the labels of the wanted ones: the
      // caller matches names its own way (case-insensitively), which no Redis lookup does.
      const [known, names] = await Promise.all([redis.sismember(knownKey(project), collection), redis.hkeys(key)]);
      if (known === 0) return null;
      const picked = names.filter(wanted);
      const entries = new Map<string, ServiceLabels>();
      const texts = picked.length === 0 ? [] : await redis.hmget(key, ...picked);
      picked.forEach((name, index) => {
        const text = texts[index];
        // Deleted between the two reads: it would not have been in a whole read either.
        if (text !== null && text !== undefined) entries.set(name, decodeLabels(text, `${key}#${name}`));
      });
      return { entries, size: names.length };
    },
    async replace(project, collection, options) {
      const key = collectionKey(project, collection);
      const multi = redis.multi().del(key);
      await hsetChunks(key, options, multi);
      multi.sadd(knownKey(project), collection);
      await execOrThrow(multi, `replace of ${key}`);
    },
    async update(project, collection, upserts, deletes) {
      const key = collectionKey(project, collection);
      const multi = redis.multi();
      if (deletes.length > 0) multi.hdel(key, ...deletes);
      await hsetChunks(key, upserts, multi);
      multi.sadd(knownKey(project), collection);
      await execOrThrow(multi, `update of ${key}`);
    },
    async recordAdded(project, collection, added, atMs) {
      if (added.length === 0) return;
      const args: string[] = [];
      for (const option of added) args.push(option.name, encodeAddition(atMs, option.label));
      await redis.hset(addedKey(project, collection), ...args);
    },
    async recentlyAdded(project, collection, sinceMs) {
      const key = addedKey(project, collection);
      const entries = await redis.hgetall(key);
      const recent = new Map<string, ServiceLabels>();
      const expired: string[] = [];
      for (const [name, text] of Object.entries(entries)) {
        const where = `${key}#${name}`;
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch {
          throw new Error(`corrupt state at ${where}: not JSON`);
        }
        const addition = parseAddition(raw, where);
        if (addition.at >= sinceMs) recent.set(name, addition.label);
        else expired.push(name);
      }
      if (expired.length > 0) await redis.hdel(key, ...expired);
      return recent;
    },
    async deletedWithin(project, collection, windowMs) {
      return Number(await DELETED_WITHIN(redis, [deletedKey(project, collection)], [windowMs]));
    },
    async recordDeleted(project, collection, count) {
      if (count <= 0) return;
      // Kept as long as the longest window the settings allow: a collection never synced again leaves nothing behind for longer.
      await RECORD_DELETED(redis, [deletedKey(project, collection)], [count, randomBytes(4).toString("hex"), DELETION_RECORD_MS]);
    },
    async forgetDeleted(project, collection) {
      await redis.del(deletedKey(project, collection));
    },
    async forget(project, collection) {
      await execOrThrow(
        redis.multi().del(collectionKey(project, collection)).srem(knownKey(project), collection),
        `forget of ${collection}`,
      );
    },
    async close() {
      if (options.ownsConnection) await redis.quit();
    },
  };
}
