import { z } from "zod";
import type { RedisClient } from "../redis/redis-client.js";
import { keyspaceOf } from "../redis/keyspace.js";
import { historyEntrySchema } from "./history-entry.js";
import type { HistoryRecord, HistoryStore } from "./history-store.js";

/** Stream entries read per round trip when listing. */
const READ_PAGE = 200;
const entriesSchema = z.array(historyEntrySchema);

/**
 * One Redis stream per project (`{prefix}:history:{project}`, the project's hash tag on a
 * cluster), one stream entry per written chunk: a sync of a million options adds a few hundred
 * stream entries, one XADD each, not a million. Stream ids are Redis' clock in ms, so `MINID`
 * on every XADD trims by age (exactly, so a quiet project's old entries go on its next write);
 * reads skip what is older than the retention even before it is trimmed.
 */
export function createRedisHistoryStore(redis: RedisClient, prefix: string, options: { readonly retentionMs: number; readonly now?: () => number }): HistoryStore {
  const keyspace = keyspaceOf(redis, prefix);
  const keyOf = (project: number): string => keyspace.projectKey(project, "history");
  const now = options.now ?? Date.now;
  return {
    async append(project, entries) {
      if (entries.length === 0) return;
      const oldest = Math.max(0, now() - options.retentionMs);
      await redis.xadd(keyOf(project), "MINID", String(oldest), "*", "e", JSON.stringify(entries));
    },
    async *newestFirst(project, query) {
      const key = keyOf(project);
      const since = Math.max(query.sinceMs, now() - options.retentionMs);
      let end = query.startId ?? "+";
      for (;;) {
        const page = await redis.xrevrange(key, end, String(Math.max(0, since)), "COUNT", READ_PAGE);
        for (const [id, fields] of page) yield recordOf(key, id, fields);
        const last = page.at(-1);
        if (last === undefined || page.length < READ_PAGE) return;
        end = `(${last[0]}`;
      }
    },
  };
}

function recordOf(key: string, id: string, fields: readonly string[]): HistoryRecord {
  const index = fields.indexOf("e");
  const text = index >= 0 ? fields[index + 1] : undefined;
  if (text === undefined) throw new Error(`corrupt history at ${key} ${id}: no entries`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`corrupt history at ${key} ${id}: not JSON`);
  }
  const parsed = entriesSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`corrupt history at ${key} ${id}: ${parsed.error.issues[0]?.message ?? "bad entries"}`);
  return { id, atMs: Number(id.split("-")[0]), entries: parsed.data };
}
