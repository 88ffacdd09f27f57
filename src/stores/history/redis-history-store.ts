import type { RedisClient } from "../../infra/redis/redis-client.js";
import { keyspaceOf } from "../../infra/redis/keyspace.js";
import { entriesOfBatch, historyBatchSchema, optionsIn } from "./history-batch.js";
import type { HistoryRecord, HistoryStore } from "./history-store.js";

/**
 * Stream entries read per round trip when listing: few at first, doubling up to the last. Each
 * is a written chunk of up to 5,000 options, so a listing of the newest 100 entries (the CLI's
 * default) reads one or two chunks, not a first sync's whole history.
 */
const FIRST_READ_PAGE = 4;
const LAST_READ_PAGE = 128;
/** The stream entry's one field: the chunk's batch as JSON. */
const BATCH_FIELD = "b";

/**
 * One Redis stream per project (`{prefix}:history:{project}`, the project's hash tag on a
 * cluster), one stream entry per written chunk holding its batch (what the chunk's options share stored
 * once, then their codes): a sync of a million options adds a few hundred stream entries, one
 * XADD each, not a million. Stream ids are Redis' clock in ms, so `MINID`
 * on every XADD trims by age (exactly, so a quiet project's old entries go on its next write);
 * reads skip what is older than the retention even before it is trimmed.
 */
export function createRedisHistoryStore(
  redis: RedisClient,
  prefix: string,
  options: { readonly retentionMs: number; readonly now?: () => number },
): HistoryStore {
  const keyspace = keyspaceOf(redis, prefix);
  const keyOf = (project: number): string => keyspace.projectKey(project, "history");
  const now = options.now ?? Date.now;
  return {
    async append(project, batch) {
      if (optionsIn(batch) === 0) return;
      const oldest = Math.max(0, now() - options.retentionMs);
      await redis.xadd(keyOf(project), "MINID", String(oldest), "*", BATCH_FIELD, JSON.stringify(batch));
    },
    async *newestFirst(project, query) {
      const key = keyOf(project);
      const since = Math.max(query.sinceMs, now() - options.retentionMs);
      let end = query.startId ?? "+";
      for (let count = FIRST_READ_PAGE; ; count = Math.min(count * 2, LAST_READ_PAGE)) {
        const page = await redis.xrevrange(key, end, String(Math.max(0, since)), "COUNT", count);
        for (const [id, fields] of page) yield recordOf(key, id, fields);
        const last = page.at(-1);
        if (last === undefined || page.length < count) return;
        end = `(${last[0]}`;
      }
    },
  };
}

function recordOf(key: string, id: string, fields: readonly string[]): HistoryRecord {
  const index = fields.indexOf(BATCH_FIELD);
  const text = index >= 0 ? fields[index + 1] : undefined;
  if (text === undefined) throw new Error(`corrupt history at ${key} ${id}: no batch`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`corrupt history at ${key} ${id}: not JSON`);
  }
  const parsed = historyBatchSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`corrupt history at ${key} ${id}: ${parsed.error.issues[0]?.message ?? "bad batch"}`);
  return { id, atMs: Number(id.split("-")[0]), entries: entriesOfBatch(parsed.data) };
}
