import { codeKey } from "../../core/derive/code-key.js";
import type { HistoryEntry } from "./history-entry.js";
import type { HistoryStore } from "./history-store.js";

export interface HistoryQuery {
  /** Compared case-insensitively, as the sync compares codes and collection names (`codeKey`). */
  readonly collection?: string | undefined;
  /** The option's name, or one of a rename's earlier spellings; case-insensitively, like `collection`. */
  readonly option?: string | undefined;
  readonly sinceMs: number;
  /** Entries per page. */
  readonly limit: number;
  /** Where the previous page ended (its `next`). */
  readonly cursor?: string | undefined;
  /** Aborted: nothing more is read (the caller's request went away or ran out of time). */
  readonly signal?: AbortSignal | undefined;
}

export interface HistoryPage {
  /** Newest first. */
  readonly entries: readonly HistoryEntry[];
  /** Pass as `cursor` for the next (older) page; null on the last one. */
  readonly next: string | null;
}

/** A cursor: the batch the next page starts in, and how many of its entries were already shown. */
const CURSOR = /^(\d+-\d+)\.(\d+)$/;

export class BadHistoryCursor extends Error {
  constructor(cursor: string) {
    super(`cursor: '${cursor}' is not a cursor this API returned`);
    this.name = "BadHistoryCursor";
  }
}

/** The query's filter, its names keyed once (`RED` finds `red`: the PIM's codes are case-insensitive). */
function matcherOf(query: Pick<HistoryQuery, "collection" | "option">): (entry: HistoryEntry) => boolean {
  const collection = query.collection === undefined ? undefined : codeKey(query.collection);
  const option = query.option === undefined ? undefined : codeKey(query.option);
  return (entry) => {
    if (collection !== undefined && codeKey(entry.collection) !== collection) return false;
    if (option !== undefined && codeKey(entry.option) !== option && entry.renamedFrom?.some((name) => codeKey(name) === option) !== true)
      return false;
    return true;
  };
}

/** One page of a project's history, newest first, filtered. */
export async function queryHistory(store: HistoryStore, project: number, query: HistoryQuery): Promise<HistoryPage> {
  let startId: string | undefined;
  let skip = 0;
  if (query.cursor !== undefined) {
    const parsed = CURSOR.exec(query.cursor);
    if (!parsed?.[1] || parsed[2] === undefined) throw new BadHistoryCursor(query.cursor);
    startId = parsed[1];
    skip = Number(parsed[2]);
  }
  const matches = matcherOf(query);
  const entries: HistoryEntry[] = [];
  for await (const record of store.newestFirst(project, { sinceMs: query.sinceMs, startId, signal: query.signal })) {
    const from = record.id === startId ? skip : 0;
    for (let index = from; index < record.entries.length; index += 1) {
      const entry = record.entries[index];
      if (entry === undefined || !matches(entry)) continue;
      if (entries.length === query.limit) return { entries, next: `${record.id}.${index}` };
      entries.push(entry);
    }
  }
  return { entries, next: null };
}

/**
 * Every matching entry, newest first, one at a time, for a listing that prints as it reads: the
 * Redis store reads a page of batches a round trip, so a million entries are never held at once.
 */
export async function* eachHistoryEntry(
  store: HistoryStore,
  project: number,
  query: Omit<HistoryQuery, "limit" | "cursor">,
): AsyncGenerator<HistoryEntry> {
  const matches = matcherOf(query);
  for await (const record of store.newestFirst(project, { sinceMs: query.sinceMs })) {
    for (const entry of record.entries) if (matches(entry)) yield entry;
  }
}

/** Every matching entry, newest first, in one array (for tests and small histories). */
export async function allHistory(
  store: HistoryStore,
  project: number,
  query: Omit<HistoryQuery, "limit" | "cursor">,
): Promise<HistoryEntry[]> {
  const entries: HistoryEntry[] = [];
  for await (const entry of eachHistoryEntry(store, project, query)) entries.push(entry);
  return entries;
}
