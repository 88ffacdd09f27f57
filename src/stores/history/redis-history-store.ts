import { z } from "zod";
import type { RedisClient } from "../../infra/redis/redis-client.js";
import { keyspaceOf } from "../../infra/redis/keyspace.js";
import { DAY_MS, dayName, zeroCounts } from "./daily-write-counts.js";
import { entriesOfBatch, historyBatchSchema, optionsIn } from "./history-batch.js";
import { HISTORY_KINDS, type HistoryKind } from "./history-entry.js";
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
/** Stream entries read per round trip when counting a day. */
const COUNT_READ_PAGE = 256;

const countsSchema = z.record(z.enum(HISTORY_KINDS), z.number().int().nonnegative());

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
  const daysKeyOf = (project: number): string => keyspace.projectKey(project, "history-days");
  const now = options.now ?? Date.now;

  /** The entries per kind of the batches recorded from `fromMs` to `toMs` (both included). */
  async function countRange(
    key: string,
    fromMs: number,
    toMs: number,
    signal: AbortSignal | undefined,
  ): Promise<Record<HistoryKind, number>> {
    const counts = zeroCounts();
    let start = String(fromMs);
    for (;;) {
      signal?.throwIfAborted();
      const page = await redis.xrange(key, start, String(toMs), "COUNT", COUNT_READ_PAGE);
      for (const [id, fields] of page) for (const entry of recordOf(key, id, fields).entries) counts[entry.kind] += 1;
      const last = page.at(-1);
      if (last === undefined || page.length < COUNT_READ_PAGE) return counts;
      start = `(${last[0]}`;
    }
  }

  return {
    /**
     * A day that is over and wholly within the retention never changes (stream ids are Redis'
     * clock, so nothing is recorded into a past day): it is counted once and kept in
     * `{prefix}:history-days:{project}` (a field per day, dropped once the day leaves the
     * retention). Only the first day of the period (cut by it) and today are counted from the
     * stream on each view.
     */
    async dailyCounts(project, query) {
      const key = keyOf(project);
      const daysKey = daysKeyOf(project);
      const since = Math.max(query.sinceMs, now() - options.retentionMs);
      const firstDay = Math.floor(since / DAY_MS);
      const lastDay = Math.floor(query.nowMs / DAY_MS);
      const kept = await redis.hgetall(daysKey);
      const out = new Map<string, Readonly<Record<HistoryKind, number>>>();
      const toKeep: string[] = [];
      for (let day = firstDay; day <= lastDay; day += 1) {
        const name = dayName(day);
        const whole = day > firstDay && day < lastDay;
        const text = whole ? kept[name] : undefined;
        const cached = text === undefined ? undefined : keptCounts(text);
        if (cached !== undefined) {
          out.set(name, cached);
          continue;
        }
        const counts = await countRange(key, day === firstDay ? since : day * DAY_MS, (day + 1) * DAY_MS - 1, query.signal);
        out.set(name, counts);
        if (whole) toKeep.push(name, JSON.stringify(counts));
      }
      const gone = Object.keys(kept).filter((name) => name < dayName(firstDay));
      if (toKeep.length > 0 || gone.length > 0) {
        const multi = redis.multi();
        if (toKeep.length > 0) multi.hset(daysKey, ...toKeep);
        if (gone.length > 0) multi.hdel(daysKey, ...gone);
        multi.pexpire(daysKey, options.retentionMs + 2 * DAY_MS);
        await multi.exec();
      }
      return out;
    },
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
        query.signal?.throwIfAborted();
        const page = await redis.xrevrange(key, end, String(Math.max(0, since)), "COUNT", count);
        for (const [id, fields] of page) yield recordOf(key, id, fields);
        const last = page.at(-1);
        if (last === undefined || page.length < count) return;
        end = `(${last[0]}`;
      }
    },
  };
}

/** A kept day's counts, or undefined when unreadable (counted again from the stream, and kept anew). */
function keptCounts(text: string): Record<HistoryKind, number> | undefined {
  try {
    const parsed = countsSchema.safeParse(JSON.parse(text));
    return parsed.success ? { ...zeroCounts(), ...parsed.data } : undefined;
  } catch {
    return undefined;
  }
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
