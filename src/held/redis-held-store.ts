import type { RedisClient } from "../redis/redis-client.js";
import { keyspaceOf } from "../redis/keyspace.js";
import { heldPlanSchema, type HeldPlan } from "./held-plan.js";
import { isExpired, oldestFirst, type HeldStore } from "./held-store.js";

/** One hash per project, `{prefix}:held:{project}` (its hash tag on a cluster): plan id → JSON. */
export function createRedisHeldStore(redis: RedisClient, prefix: string, options: { readonly now?: () => number } = {}): HeldStore {
  const keyspace = keyspaceOf(redis, prefix);
  const keyOf = (project: number): string => keyspace.projectKey(project, "held");
  const now = options.now ?? Date.now;
  return {
    async list(project) {
      const key = keyOf(project);
      const stored = await redis.hgetall(key);
      const plans: HeldPlan[] = [];
      const expired: string[] = [];
      for (const [id, text] of Object.entries(stored)) {
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch {
          throw new Error(`corrupt held plan at ${key}#${id}: not JSON`);
        }
        const parsed = heldPlanSchema.safeParse(raw);
        if (!parsed.success) throw new Error(`corrupt held plan at ${key}#${id}: ${parsed.error.issues[0]?.message ?? "bad plan"}`);
        if (isExpired(parsed.data, now())) expired.push(id);
        else plans.push(parsed.data);
      }
      if (expired.length > 0) await redis.hdel(key, ...expired);
      return plans.sort(oldestFirst);
    },
    async put(plan) {
      await redis.hset(keyOf(plan.project), plan.id, JSON.stringify(plan));
    },
    async remove(project, ids) {
      if (ids.length > 0) await redis.hdel(keyOf(project), ...ids);
    },
  };
}
