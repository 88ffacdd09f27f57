import type { HistoryBatch } from "./history-batch.js";
import type { HistoryEntry, HistoryKind } from "./history-entry.js";

/**
 * A batch written together (one written chunk), read back as its entries: its id orders it among
 * the others (`<ms>-<seq>`, a Redis stream id's shape, increasing), its time is when it was
 * appended.
 */
export interface HistoryRecord {
  readonly id: string;
  readonly atMs: number;
  readonly entries: readonly HistoryEntry[];
}

/** Where the change history is kept: a Redis stream per project, or a file in `--once` mode. */
export interface HistoryStore {
  /** Appends one batch (nothing for an empty one) and trims what is older than the retention. */
  append(project: number, batch: HistoryBatch): Promise<void>;
  /**
   * Batches newest first, appended at or after `sinceMs` (never older than the retention) and,
   * with `startId`, from that batch on (it included). Once `signal` is aborted no more is read
   * (the iteration throws its reason): a reader whose request went away stops costing reads.
   */
  newestFirst(
    project: number,
    options: { readonly sinceMs: number; readonly startId?: string | undefined; readonly signal?: AbortSignal | undefined },
  ): AsyncIterable<HistoryRecord>;
  /**
   * The writes per day (UTC, by when each batch was recorded) from `sinceMs` to `nowMs`, when the
   * store keeps them cheaper than reading every batch (dailyWriteCounts reads them whole otherwise).
   */
  dailyCounts?(project: number, options: DailyCountsQuery): Promise<ReadonlyMap<string, Readonly<Record<HistoryKind, number>>>>;
}

export interface DailyCountsQuery {
  readonly sinceMs: number;
  readonly nowMs: number;
  readonly signal?: AbortSignal | undefined;
}

/** `history.enabled: false`: nothing recorded, nothing to list. */
export const DISABLED_HISTORY: HistoryStore = {
  async append() {},
  async *newestFirst() {},
};

/** Orders two record ids (`<ms>-<seq>`): negative when `a` is older. */
export function compareRecordIds(a: string, b: string): number {
  const [aMs = 0, aSeq = 0] = a.split("-").map(Number);
  const [bMs = 0, bSeq = 0] = b.split("-").map(Number);
  return aMs !== bMs ? aMs - bMs : aSeq - bSeq;
}
