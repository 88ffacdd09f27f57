import { z } from "zod";
import type { Keyspace } from "../../infra/redis/keyspace.js";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import { redisScript } from "../../infra/redis/redis-script.js";
import { SUBSCRIPTION_STATES, type SubscriptionState } from "./subscription-notification.js";

/** A project's subscription as its last notification left it. */
export interface SubscriptionStatus {
  readonly state: SubscriptionState;
  /** The notification's type as the platform sent it (`subscription.suspended.system`). */
  readonly notificationType: string;
  readonly subscriptionId: string;
  readonly reason: string | null;
  /** The notification's own time (its `timestamp`), in ms: what orders notifications. */
  readonly at: number;
  /** When pim-sync received it, in ms. */
  readonly receivedAt: number;
}

const statusSchema = z.object({
  state: z.enum(SUBSCRIPTION_STATES),
  notificationType: z.string(),
  subscriptionId: z.string(),
  reason: z.string().nullable(),
  at: z.number(),
  receivedAt: z.number(),
});

/**
 * Writes the status unless one with a later notification time is there: the platform retries a
 * notification it was not answered 2xx, so an older one can arrive after a newer one. Equal times
 * take the later arrival. 1 when written, 0 when the stored one is newer.
 */
const RECORD = redisScript(`
local stored = redis.call('GET', KEYS[1])
if stored then
  local ok, previous = pcall(cjson.decode, stored)
  if ok and type(previous) == 'table' and tonumber(previous['at']) and tonumber(previous['at']) > tonumber(ARGV[2]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1
`);

export interface SubscriptionStateStore {
  /** Records a notification's status; false when a later one is already recorded (nothing changed). */
  record(project: number, status: SubscriptionStatus): Promise<boolean>;
  /** The last recorded status, or null (never notified: taken as active). */
  read(project: number): Promise<SubscriptionStatus | null>;
}

/** One key per project, kept without expiry: a suspension stays known until a resume says otherwise. */
export function createSubscriptionStateStore(redis: RedisClient, keyspace: Keyspace): SubscriptionStateStore {
  const key = (project: number): string => keyspace.projectKey(project, "pim-events", "subscription");
  return {
    async record(project, status) {
      return (await RECORD(redis, [key(project)], [JSON.stringify(status), status.at])) === 1;
    },
    async read(project) {
      const raw = await redis.get(key(project));
      if (raw === null) return null;
      try {
        const parsed = statusSchema.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}
