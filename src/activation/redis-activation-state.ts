import { keyspaceOf } from "../redis/keyspace.js";
import type { RedisClient } from "../redis/redis-client.js";
import type { ActivationStateStore } from "./activation-state-store.js";

/** Entries per HSET/SADD round trip, so a big first pull does not make one huge command. */
const CHUNK = 1000;

/**
 * Keys `{prefix}:activation:{connection}:orders` (hash: order id → content hash) and
 * `{prefix}:activation:{connection}:offers` (set of accepted offer hashes), on one server;
 * tagged `{activation}` on a cluster (src/redis/keyspace.ts).
 */
export function createRedisActivationState(redis: RedisClient, prefix: string, options: { readonly ownsConnection?: boolean } = {}): ActivationStateStore {
  const keyspace = keyspaceOf(redis, prefix);
  const ordersKey = (connection: string): string => keyspace.activationStateKey(connection, "orders");
  const offersKey = (connection: string): string => keyspace.activationStateKey(connection, "offers");

  async function exec(multi: ReturnType<RedisClient["multi"]>, what: string): Promise<void> {
    const results = await multi.exec();
    if (results === null) throw new Error(`activation state ${what} failed: the transaction was discarded`);
    const failed = results.find(([error]) => error !== null)?.[0];
    if (failed) throw new Error(`activation state ${what} failed: ${failed.message}`, { cause: failed });
  }

  return {
    async emittedOrders(connection) {
      return new Map(Object.entries(await redis.hgetall(ordersKey(connection))));
    },
    async recordEmitted(connection, orders) {
      if (orders.length === 0) return;
      const multi = redis.multi();
      for (let i = 0; i < orders.length; i += CHUNK) multi.hset(ordersKey(connection), ...orders.slice(i, i + CHUNK).flatMap((order) => [order.id, order.hash]));
      await exec(multi, `record of orders of ${connection}`);
    },
    async acceptedOffers(connection) {
      return new Set(await redis.smembers(offersKey(connection)));
    },
    async recordAcceptedOffers(connection, hashes) {
      if (hashes.length === 0) return;
      const multi = redis.multi();
      for (let i = 0; i < hashes.length; i += CHUNK) multi.sadd(offersKey(connection), ...hashes.slice(i, i + CHUNK));
      await exec(multi, `record of offers of ${connection}`);
    },
    async close() {
      if (options.ownsConnection) await redis.quit();
    },
  };
}
