import type { RedisClient } from "../../../infra/redis/redis-client.js";
import { keyspaceOf } from "../../../infra/redis/keyspace.js";
import { heldPlanSchema, type HeldPlan } from "./held-plan.js";
import { isExpired, nextRevision, oldestFirst, type HeldStore } from "./held-store.js";
import { redisScript } from "../../../infra/redis/redis-script.js";

/**
 * KEYS: the project's hash. ARGV: plan id, the revision read ('' = none may exist), the new JSON
 * ('' = remove). 1 when written, 0 when the plan changed or went meanwhile. A plan that does not
 * decode counts as changed.
 */
const SAVE_IF_UNCHANGED = redisScript(`
local current = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[2] == '' then
  if current then return 0 end
else
  if not current then return 0 end
  local ok, decoded = pcall(cjson.decode, current)
  if not ok or type(decoded) ~= 'table' then return 0 end
  local revision = decoded['revision']
  if type(revision) ~= 'number' then revision = 0 end
  if revision ~= tonumber(ARGV[2]) then return 0 end
end
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
return 1
`);

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
    async save(plan, read) {
      const stored = nextRevision(plan, read);
      return (
        (await SAVE_IF_UNCHANGED(redis, [keyOf(plan.project)], [plan.id, read === null ? "" : read.revision, JSON.stringify(stored)])) === 1
      );
    },
    async discard(plan) {
      return (await SAVE_IF_UNCHANGED(redis, [keyOf(plan.project)], [plan.id, plan.revision, ""])) === 1;
    },
  };
}
