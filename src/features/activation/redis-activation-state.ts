import { keyspaceOf } from "../../infra/redis/keyspace.js";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import type { ActivationRetention, ActivationStateStore, LastDelivered, RefusedOrder } from "./activation-state-store.js";
import { parseRefusedOrder } from "./refused-order-schema.js";

/** Entries per command, so a big pull or put does not make one huge command. */
const CHUNK = 1000;
/** Expired entries dropped per write, at most: a backlog is worked off over the next writes. */
const PRUNE_LIMIT = 10_000;

/** `<hash>` (written before versions existed: version 1) or `<version> <hash>`. */
function parseDelivered(value: string): LastDelivered {
  const space = value.indexOf(" ");
  if (space < 0) return { hash: value, version: 1 };
  const version = Number(value.slice(0, space));
  return { hash: value.slice(space + 1), version: Number.isSafeInteger(version) && version > 0 ? version : 1 };
}

/**
 * Per connection (keys in src/infra/redis/keyspace.ts, tagged `{activation}` on a cluster):
 * `orders` hash id → "<version> <hash>", `orders-listed` sorted set id by last listing (ms),
 * `offer-hashes` hash key → hash, `offers-accepted` sorted set key by last acceptance (ms).
 * One hash `refused-orders` for the set-aside orders of every connection. Reads are HMGET of the
 * ids at hand; expiry walks the sorted sets from their oldest end.
 */
export function createRedisActivationState(
  redis: RedisClient,
  prefix: string,
  options: { readonly retention: ActivationRetention; readonly now?: () => number; readonly ownsConnection?: boolean },
): ActivationStateStore {
  const keyspace = keyspaceOf(redis, prefix);
  const now = options.now ?? Date.now;
  const key = (connection: string, what: Parameters<typeof keyspace.activationStateKey>[1]): string =>
    keyspace.activationStateKey(connection, what);
  const refusedKey = keyspace.activationKey("refused-orders");
  const refusedField = (connection: string, id: string): string => JSON.stringify([connection, id]);

  async function exec(multi: ReturnType<RedisClient["multi"]>, what: string): Promise<void> {
    const results = await multi.exec();
    if (results === null) throw new Error(`activation state ${what} failed: the transaction was discarded`);
    const failed = results.find(([error]) => error !== null)?.[0];
    if (failed) throw new Error(`activation state ${what} failed: ${failed.message}`, { cause: failed });
  }

  async function hmget(hashKey: string, fields: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (let i = 0; i < fields.length; i += CHUNK) {
      const chunk = fields.slice(i, i + CHUNK);
      const values = await redis.hmget(hashKey, ...chunk);
      chunk.forEach((field, index) => {
        const value = values[index];
        if (typeof value === "string") found.set(field, value);
      });
    }
    return found;
  }

  /** Drops the entries of `hashKey` whose time in `timesKey` is older than `maxAgeMs`. */
  async function expire(hashKey: string, timesKey: string, maxAgeMs: number): Promise<void> {
    const cutoff = now() - maxAgeMs;
    let dropped = 0;
    while (dropped < PRUNE_LIMIT) {
      const old = await redis.zrangebyscore(timesKey, "-inf", `(${cutoff}`, "LIMIT", 0, CHUNK);
      if (old.length === 0) return;
      const multi = redis.multi();
      multi.hdel(hashKey, ...old);
      multi.zrem(timesKey, ...old);
      await exec(multi, "expiry");
      dropped += old.length;
      if (old.length < CHUNK) return;
    }
  }

  async function touch(timesKey: string, members: readonly string[]): Promise<void> {
    const at = now();
    for (let i = 0; i < members.length; i += CHUNK) {
      await redis.zadd(timesKey, ...members.slice(i, i + CHUNK).flatMap((member) => [at, member]));
    }
  }

  async function allRefused(): Promise<RefusedOrder[]> {
    const entries = Object.values(await redis.hgetall(refusedKey)).map((text) => parseRefusedOrder(text, refusedKey));
    return entries.sort((a, b) => a.refused_at.localeCompare(b.refused_at));
  }

  return {
    async lastDelivered(connection, ids) {
      const found = await hmget(key(connection, "orders"), ids);
      return new Map([...found].map(([id, value]) => [id, parseDelivered(value)]));
    },
    async recordDelivered(connection, orders) {
      if (orders.length === 0) return;
      const at = now();
      const multi = redis.multi();
      for (let i = 0; i < orders.length; i += CHUNK) {
        const chunk = orders.slice(i, i + CHUNK);
        multi.hset(key(connection, "orders"), ...chunk.flatMap((order) => [order.id, `${order.version} ${order.hash}`]));
        multi.zadd(key(connection, "orders-listed"), ...chunk.flatMap((order) => [at, order.id]));
      }
      await exec(multi, `record of orders of ${connection}`);
    },
    async markListed(connection, ids) {
      await touch(key(connection, "orders-listed"), ids);
      await expire(key(connection, "orders"), key(connection, "orders-listed"), options.retention.ordersMs);
      const cutoff = new Date(now() - options.retention.ordersMs).toISOString();
      const expired = (await allRefused()).filter((entry) => entry.refused_at < cutoff);
      if (expired.length > 0) await redis.hdel(refusedKey, ...expired.map((entry) => refusedField(entry.connection, entry.order_id)));
    },
    async acceptedOffers(connection, keys) {
      return hmget(key(connection, "offer-hashes"), keys);
    },
    async recordAcceptedOffers(connection, offers) {
      if (offers.length === 0) return;
      const at = now();
      const multi = redis.multi();
      for (let i = 0; i < offers.length; i += CHUNK) {
        const chunk = offers.slice(i, i + CHUNK);
        multi.hset(key(connection, "offer-hashes"), ...chunk.flatMap((offer) => [offer.key, offer.hash]));
        multi.zadd(key(connection, "offers-accepted"), ...chunk.flatMap((offer) => [at, offer.key]));
      }
      // The set of every hash ever accepted, as older versions kept it: unbounded and no longer read.
      multi.unlink(key(connection, "offers"));
      await exec(multi, `record of offers of ${connection}`);
      await expire(key(connection, "offer-hashes"), key(connection, "offers-accepted"), options.retention.offersMs);
    },
    async setAside(order) {
      await redis.hset(refusedKey, refusedField(order.connection, order.order_id), JSON.stringify(order));
    },
    async refusedOrders(connection) {
      const all = await allRefused();
      return connection === undefined ? all : all.filter((entry) => entry.connection === connection);
    },
    async clearRefused(connection, ids) {
      if (ids.length === 0) return;
      for (let i = 0; i < ids.length; i += CHUNK)
        await redis.hdel(refusedKey, ...ids.slice(i, i + CHUNK).map((id) => refusedField(connection, id)));
    },
    async close() {
      if (options.ownsConnection) await redis.quit();
    },
  };
}
