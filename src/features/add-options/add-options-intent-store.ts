import { z } from "zod";
import { keyspaceOf } from "../../infra/redis/keyspace.js";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import { MERGE_CAPS } from "./merge-caps.js";

/** Per request, per collection: the lower-cased option names a run of that request was adding. */
export type IntentsByRequest = ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;

/**
 * What each add-options request was about to add, written before the write that adds it. A run
 * killed after the service accepted a write (or a request that failed or was refused after some
 * of its writes) leaves its options in the collection; the next attempt finds them present and,
 * without this record, could not tell an option this request added from one that was there
 * before. With it, the outcome lists as `added` every option the request caused to be added,
 * whichever run or attempt added it (see runAddOptionsBatch).
 */
export interface AddOptionsIntentStore {
  /** Before a write: each request of it is about to add these names to `collection` (one transaction). */
  record(project: number, collection: string, names: ReadonlyMap<string, readonly string[]>): Promise<void>;
  /** The service refused the write (a 4xx changes nothing): these requests did not add these names. */
  forget(project: number, collection: string, names: ReadonlyMap<string, readonly string[]>): Promise<void>;
  /** What earlier runs of these requests were adding (one round trip). */
  read(project: number, requests: readonly string[]): Promise<IntentsByRequest>;
}

/** A hash field: the collection and the lower-cased name, unambiguous whatever either holds. */
const fieldSchema = z.tuple([z.string(), z.string()]);
const fieldOf = (collection: string, name: string): string => JSON.stringify([collection, name.toLowerCase()]);

/**
 * One hash per request, `{prefix}:add-intent:{project}:{job id}`, under the project's hash tag on
 * a cluster (one batch's transaction stays in one slot). Each write refreshes its time to live,
 * that of the outcomes: a request retried within it (BullMQ's retries, a replay after a refusal)
 * still finds what its earlier attempts added. Job ids are never reused within a queue.
 */
export function createAddOptionsIntentStore(
  redis: RedisClient,
  prefix: string,
  ttlSeconds: number = MERGE_CAPS.outcomeTtlSeconds,
): AddOptionsIntentStore {
  const keyspace = keyspaceOf(redis, prefix);
  const keyOf = (project: number, request: string): string => keyspace.projectKey(project, "add-intent", request);
  const check = (results: [Error | null, unknown][] | null, what: string): [Error | null, unknown][] => {
    const failed = results?.find(([error]) => error !== null)?.[0];
    if (results === null || failed) throw new Error(`${what} failed: ${failed?.message ?? "the transaction was discarded"}`);
    return results;
  };
  return {
    async record(project, collection, names) {
      const multi = redis.multi();
      let fields = 0;
      for (const [request, requestNames] of names) {
        if (requestNames.length === 0) continue;
        const key = keyOf(project, request);
        multi.hset(key, ...requestNames.flatMap((name) => [fieldOf(collection, name), "1"]));
        multi.expire(key, ttlSeconds);
        fields += requestNames.length;
      }
      if (fields === 0) return;
      check(await multi.exec(), "recording the options add-options is about to add");
    },
    async forget(project, collection, names) {
      const multi = redis.multi();
      let fields = 0;
      for (const [request, requestNames] of names) {
        if (requestNames.length === 0) continue;
        multi.hdel(keyOf(project, request), ...requestNames.map((name) => fieldOf(collection, name)));
        fields += requestNames.length;
      }
      if (fields === 0) return;
      check(await multi.exec(), "forgetting options a refused add-options write carried");
    },
    async read(project, requests) {
      const found = new Map<string, Map<string, Set<string>>>();
      if (requests.length === 0) return found;
      const pipeline = redis.pipeline();
      for (const request of requests) pipeline.hgetall(keyOf(project, request));
      const results = check(await pipeline.exec(), "reading what earlier add-options runs were adding");
      requests.forEach((request, index) => {
        const hash = results[index]?.[1];
        if (hash === null || typeof hash !== "object") return;
        const byCollection = new Map<string, Set<string>>();
        for (const field of Object.keys(hash)) {
          // Redis is a boundary: a field of another shape is ignored, never trusted.
          let parsed;
          try {
            parsed = fieldSchema.safeParse(JSON.parse(field));
          } catch {
            continue;
          }
          if (!parsed.success) continue;
          const [collection, name] = parsed.data;
          byCollection.set(collection, (byCollection.get(collection) ?? new Set()).add(name));
        }
        if (byCollection.size > 0) found.set(request, byCollection);
      });
      return found;
    },
  };
}
