import { HISTORY_KINDS, type HistoryKind } from "./history-entry.js";
import type { HistoryStore } from "./history-store.js";

/** The writes of one day (UTC), per kind. */
export interface DailyWriteCount {
  /** `YYYY-MM-DD`, UTC. */
  readonly day: string;
  readonly counts: Readonly<Record<HistoryKind, number>>;
  readonly total: number;
}

export const DAY_MS = 86_400_000;
export const zeroCounts = (): Record<HistoryKind, number> =>
  Object.fromEntries(HISTORY_KINDS.map((kind) => [kind, 0])) as Record<HistoryKind, number>;
/** `YYYY-MM-DD` of a day number (days since the epoch, UTC). */
export const dayName = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * A project's writes per day and kind from `sinceMs` to `nowMs`, oldest day first, every day of
 * the period present (a day without writes counts 0), so a chart of them shows a mass change as
 * the spike it was. From the store's own daily counts when it keeps them (Redis: a view costs a
 * few reads whatever the retention), else counted from every batch by when the service confirmed
 * each write. Stops reading once `signal` is aborted.
 */
export async function dailyWriteCounts(
  store: HistoryStore,
  project: number,
  options: { readonly sinceMs: number; readonly nowMs: number; readonly signal?: AbortSignal | undefined },
): Promise<DailyWriteCount[]> {
  const firstDay = Math.floor(options.sinceMs / DAY_MS);
  const lastDay = Math.floor(options.nowMs / DAY_MS);
  const days = new Map<number, Record<HistoryKind, number>>();
  for (let day = firstDay; day <= lastDay; day += 1) days.set(day, zeroCounts());
  if (store.dailyCounts) {
    for (const [name, counts] of await store.dailyCounts(project, options)) {
      const known = days.get(Math.floor(Date.parse(name) / DAY_MS));
      if (known !== undefined) for (const kind of HISTORY_KINDS) known[kind] += counts[kind];
    }
  } else {
    for await (const record of store.newestFirst(project, { sinceMs: options.sinceMs, signal: options.signal })) {
      for (const entry of record.entries) {
        const at = Date.parse(entry.at);
        const counts = days.get(Math.floor((Number.isFinite(at) ? at : record.atMs) / DAY_MS));
        if (counts !== undefined) counts[entry.kind] += 1;
      }
    }
  }
  return [...days].map(([day, counts]) => ({
    day: dayName(day),
    counts,
    total: HISTORY_KINDS.reduce((sum, kind) => sum + counts[kind], 0),
  }));
}
